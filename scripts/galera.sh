#!/usr/bin/env bash
# A local 3-node MariaDB Galera cluster for tests and benchmarks (docs/decisions/0011-scale-out-on-galera.md).
#
#   scripts/galera.sh up     start it (after clearing what an earlier run left behind)
#   scripts/galera.sh down   stop every node and delete the data folders
#   scripts/galera.sh status wsrep_cluster_size and state of each node
#   scripts/galera.sh run COMMAND...
#                            up, then COMMAND with GALERA_URLS and TEST_GALERA_URLS set to the nodes'
#                            URLs (mysql://root@127.0.0.1:3307/test,...), then down, whatever COMMAND did
#   GALERA_STANDALONE=1      also a server without Galera on 3310 (GALERA_STANDALONE_URL), for benchmarks
#
# Nodes 1–3 listen for SQL on 127.0.0.1:3307–3309 (root, empty password), for Galera on
# 4567/4577/4587 (incremental state transfer one port above) and for rsync state transfers on
# 4444/4454/4464 (rsync; only a node that falls behind needs one). Their data folders live under
# $GALERA_DIR (default $TMPDIR/cta-galera).
# The nodes keep the server defaults that matter for speed (a log flush per commit, a 128 MB buffer
# pool), so a benchmark compares them fairly with a standalone server. The system MariaDB (3306) is
# not touched.
set -Eeuo pipefail
trap 'echo "galera: failed at line $LINENO: $BASH_COMMAND" >&2' ERR

GALERA_DIR="${GALERA_DIR:-${TMPDIR:-/tmp}/cta-galera}"
GALERA_PROVIDER="${GALERA_PROVIDER:-/usr/lib/galera/libgalera_smm.so}"
NODES=(1 2 3)
# With GALERA_STANDALONE set, `up` also starts a server without Galera as "node" 4 (port 3310).
STANDALONE=4
START_TIMEOUT_S=90

sql_port() { echo $((3306 + $1)); }
galera_port() { echo $((4567 + 10 * ($1 - 1))); }
sst_port() { echo $((4444 + 10 * ($1 - 1))); }
cluster_address() {
  local addresses=() node
  for node in "${NODES[@]}"; do addresses+=("127.0.0.1:$(galera_port "$node")"); done
  (IFS=,; echo "gcomm://${addresses[*]}")
}

# mariadbd refuses to run as root, and the rsync state transfer fails with "Permission denied"
# unless the donor and the joiner run as the same user as the files: `mysql` when we are root.
if [ "$(id -u)" = 0 ]; then RUN_AS=mysql; else RUN_AS="$(id -un)"; fi

node_dir() { echo "$GALERA_DIR/node$1"; }
node_cnf() { echo "$GALERA_DIR/node$1.cnf"; }
node_pid_file() { echo "$GALERA_DIR/node$1.pid"; }
node_log() { echo "$GALERA_DIR/node$1.err"; }

client() { # node, then mariadb client arguments
  local node=$1; shift
  mariadb --no-defaults --protocol=tcp -h127.0.0.1 -P"$(sql_port "$node")" -uroot --connect-timeout=2 -N -B "$@"
}

status_of() { client "$1" -e "SHOW GLOBAL STATUS LIKE '$2'" 2>/dev/null | cut -f2 || true; }

write_cnf() {
  local node=$1 galera
  galera=$(galera_port "$node")
  mkdir -p "$GALERA_DIR/tmp$node" && { chown "$RUN_AS" "$GALERA_DIR/tmp$node" 2>/dev/null || true; }
  cat >"$(node_cnf "$node")" <<EOF
[mariadbd]
user=$RUN_AS
datadir=$(node_dir "$node")
socket=$GALERA_DIR/node$node.sock
pid-file=$(node_pid_file "$node")
# Temporary tables in the cluster's own folder, not beside those of the machine's MariaDB server in /tmp.
tmpdir=$GALERA_DIR/tmp$node
log-error=$(node_log "$node")
port=$(sql_port "$node")
bind-address=127.0.0.1
skip-name-resolve
character-set-server=utf8mb4
collation-server=utf8mb4_unicode_ci
performance_schema=OFF
binlog_format=ROW
default_storage_engine=InnoDB
innodb_autoinc_lock_mode=2
innodb_buffer_pool_size=128M
innodb_log_file_size=64M
max_connections=500
wsrep_on=ON
wsrep_provider=$GALERA_PROVIDER
wsrep_cluster_name=cta-galera
wsrep_cluster_address=$(cluster_address)
wsrep_node_name=node$node
wsrep_node_address=127.0.0.1:$galera
wsrep_provider_options="gmcast.listen_addr=tcp://127.0.0.1:$galera;ist.recv_addr=127.0.0.1:$((galera + 1));gcache.size=32M"
wsrep_sst_method=rsync
wsrep_sst_receive_address=127.0.0.1:$(sst_port "$node")
wsrep_slave_threads=2
# What a multi-primary cluster needs of the schema, enforced: a primary key on every table, InnoDB only.
wsrep_mode=REQUIRED_PRIMARY_KEY,STRICT_REPLICATION
EOF
}

# The nodes of this cluster, and rsync daemons of an interrupted state transfer into their folders:
# processes with an argument naming one of our configuration files (one grep over all command lines).
cluster_pids() {
  local dir
  dir=$(printf '%s' "$GALERA_DIR" | sed 's/[.[\*^$]/\\&/g')
  { grep -lzE -- "^(--defaults-file=$dir/node[0-9]+\.cnf|$dir/node[0-9]+//?rsync_sst\.conf)\$" /proc/[0-9]*/cmdline 2>/dev/null || true; } |
    sed 's|^/proc/\([0-9]*\)/cmdline$|\1|'
}

running() { local pid; for pid in "$@"; do [ -d "/proc/$pid" ] && echo "$pid"; done; true; }

stop_all() {
  local pids
  pids=$(cluster_pids)
  [ -z "$pids" ] && return
  # shellcheck disable=SC2086
  kill -TERM $pids 2>/dev/null || true
  for _ in $(seq 1 30); do
    # shellcheck disable=SC2086
    pids=$(running $pids)
    [ -z "$pids" ] && return
    sleep 0.1
  done
  # shellcheck disable=SC2086
  kill -KILL $pids 2>/dev/null || true
  # shellcheck disable=SC2086
  while [ -n "$(running $pids)" ]; do sleep 0.1; done
}

start_node() { # node, extra mariadbd arguments
  local node=$1; shift
  mkdir -p "$(node_dir "$node")"
  chown -R "$RUN_AS" "$GALERA_DIR" 2>/dev/null || true
  /usr/sbin/mariadbd --defaults-file="$(node_cnf "$node")" "$@" >/dev/null 2>&1 &
  STARTED_PID[$node]=$!
  disown
}
declare -a STARTED_PID

wait_synced() { # node
  local node=$1 deadline=$((SECONDS + START_TIMEOUT_S))
  until [ "$(status_of "$node" wsrep_local_state_comment)" = Synced ]; do
    if [ $SECONDS -ge $deadline ] || ! [ -d "/proc/${STARTED_PID[$node]}" ]; then
      echo "galera: node $node did not reach Synced within ${START_TIMEOUT_S}s; its log:" >&2
      tail -n 30 "$(node_log "$node")" >&2 || true
      exit 1
    fi
    sleep 0.2
  done
}

up() {
  local started=$SECONDS node
  [ -f "$GALERA_PROVIDER" ] || { echo "galera: $GALERA_PROVIDER is missing (apt-get install galera-4 rsync)" >&2; exit 1; }
  command -v rsync >/dev/null || { echo "galera: rsync is missing (apt-get install rsync)" >&2; exit 1; }
  stop_all
  rm -rf "$GALERA_DIR"
  mkdir -p "$GALERA_DIR"
  for node in "${NODES[@]}"; do write_cnf "$node"; done

  # No node copies data from another (an rsync state transfer took 10-40 s per joiner here): node 1
  # is initialised, starts a cluster once and stops cleanly, which leaves its Galera position on
  # disk; nodes 2 and 3 get copies of its folder. Each then gets the same saved primary component
  # of all three nodes (gvwstate.dat, under its own node id), so when the three start together they
  # restore that component at one position and are synced at once, without a bootstrap.
  mariadb-install-db --defaults-file="$(node_cnf 1)" --user="$RUN_AS" --auth-root-authentication-method=normal \
    --skip-test-db >"$GALERA_DIR/install.log" 2>&1 || { cat "$GALERA_DIR/install.log" >&2; exit 1; }
  if [ -n "${GALERA_STANDALONE:-}" ]; then
    # The same server, settings and data as a node, without Galera: the baseline of bench:galera.
    write_cnf "$STANDALONE"
    sed -i '/^wsrep/d' "$(node_cnf "$STANDALONE")"
    cp -a "$(node_dir 1)" "$(node_dir "$STANDALONE")"
    start_node "$STANDALONE"
  fi
  start_node 1 --wsrep-new-cluster
  wait_synced 1
  kill -TERM "${STARTED_PID[1]}"
  while [ -d "/proc/${STARTED_PID[1]}" ]; do sleep 0.1; done
  for node in "${NODES[@]:1}"; do cp -a "$(node_dir 1)" "$(node_dir "$node")"; done
  local ids=() members=""
  for node in "${NODES[@]}"; do
    ids[node]=$(cat /proc/sys/kernel/random/uuid)
    members+="member: ${ids[node]} 0"$'\n'
  done
  for node in "${NODES[@]}"; do
    printf 'my_uuid: %s\n#vwbeg\nview_id: 3 %s 2\nbootstrap: 0\n%s#vwend\n' "${ids[node]}" "${ids[1]}" "$members" >"$(node_dir "$node")/gvwstate.dat"
  done
  for node in "${NODES[@]}"; do start_node "$node"; done
  for node in "${NODES[@]}"; do wait_synced "$node"; done
  for node in "${NODES[@]}"; do
    [ "$(status_of "$node" wsrep_cluster_size)" = "${#NODES[@]}" ] || { echo "galera: node $node does not see ${#NODES[@]} nodes" >&2; exit 1; }
  done
  client 1 -e "CREATE DATABASE IF NOT EXISTS test CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci"
  if [ -n "${GALERA_STANDALONE:-}" ]; then
    until client "$STANDALONE" -e "CREATE DATABASE IF NOT EXISTS test" 2>/dev/null; do
      [ -d "/proc/${STARTED_PID[$STANDALONE]}" ] || { tail -n 30 "$(node_log "$STANDALONE")" >&2; exit 1; }
      sleep 0.2
    done
    echo "galera: standalone server (no Galera) on 127.0.0.1:$(sql_port "$STANDALONE")"
  fi
  echo "galera: 3 nodes synced in $((SECONDS - started))s on 127.0.0.1:$(sql_port 1)-$(sql_port "${NODES[-1]}") (data in $GALERA_DIR)"
}

down() {
  stop_all
  rm -rf "$GALERA_DIR"
  echo "galera: stopped"
}

status() {
  local node
  for node in "${NODES[@]}"; do
    echo "node $node (127.0.0.1:$(sql_port "$node")): size=$(status_of "$node" wsrep_cluster_size) state=$(status_of "$node" wsrep_local_state_comment)"
  done
}

node_urls() {
  local urls=() node
  for node in "${NODES[@]}"; do urls+=("mysql://root@127.0.0.1:$(sql_port "$node")/test"); done
  (IFS=,; echo "${urls[*]}")
}

run() {
  [ $# -gt 0 ] || { echo "usage: $0 run COMMAND..." >&2; exit 2; }
  trap down EXIT
  trap 'exit 130' INT TERM
  up
  GALERA_URLS=$(node_urls)
  export GALERA_URLS TEST_GALERA_URLS="$GALERA_URLS"
  [ -z "${GALERA_STANDALONE:-}" ] || export GALERA_STANDALONE_URL="mysql://root@127.0.0.1:$(sql_port "$STANDALONE")/test"
  local status=0
  trap - ERR
  "$@" || status=$?
  exit "$status"
}

case "${1:-}" in
  up) up ;;
  down) down ;;
  status) status ;;
  run) shift; run "$@" ;;
  *) echo "usage: $0 up|down|status|run COMMAND..." >&2; exit 2 ;;
esac
