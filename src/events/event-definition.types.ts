/** A typed property of an event definition, as stored and answered. */
export interface EventProperty {
  propertyName: string;
  type: string;
  isMandatory: boolean;
  expectedValue: string | null;
  description: string | null;
}

/** An event definition as the API answers it. */
export interface EventDefinition {
  eventName: string;
  properties: EventProperty[];
}
