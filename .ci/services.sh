#!/usr/bin/env bash
# Starts a private PostgreSQL cluster and a Redis server on spare loopback ports for the scale-out
# test configuration, and prints the environment the tests need. Idempotent: a running pair is reused.
#   eval "$(bash .ci/services.sh)"
# QL_PG_DURABLE=1 (the benchmark's cluster) keeps fsync on, as in production; with
# synchronous_commit off, a commit is as durable as SQLite's default synchronous=NORMAL (a power
# loss may take the last commits, never corrupts). The test cluster turns fsync off too.
set -euo pipefail

PG_PORT=${QL_PG_PORT:-55432}
REDIS_PORT=${QL_REDIS_PORT:-56379}
BASE=${QL_SERVICES_DIR:-/tmp/questline-services}
mkdir -p "$BASE"

pg_bin=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1)
if [ -z "$pg_bin" ]; then
  echo "PostgreSQL is not installed (apt-get install postgresql)" >&2
  exit 1
fi

PGDATA="$BASE/pg"
run_pg() {
  if [ "$(id -u)" = "0" ]; then runuser -u postgres -- "$@"; else "$@"; fi
}
if [ ! -f "$PGDATA/PG_VERSION" ]; then
  mkdir -p "$PGDATA"
  [ "$(id -u)" = "0" ] && chown -R postgres:postgres "$BASE"
  run_pg "$pg_bin/initdb" -D "$PGDATA" -U postgres --auth=trust -E UTF8 >"$BASE/initdb.log" 2>&1
fi
durability="-c fsync=off"
[ "${QL_PG_DURABLE:-0}" = "1" ] && durability="-c fsync=on"
if ! run_pg "$pg_bin/pg_ctl" -D "$PGDATA" status >/dev/null 2>&1; then
  run_pg "$pg_bin/pg_ctl" -D "$PGDATA" -l "$BASE/pg.log" -w \
    -o "-p $PG_PORT -k $BASE -c listen_addresses=127.0.0.1 -c max_connections=300 $durability -c synchronous_commit=off" start >/dev/null
fi
for _ in $(seq 1 30); do
  "$pg_bin/pg_isready" -h 127.0.0.1 -p "$PG_PORT" >/dev/null 2>&1 && break
  sleep 1
done
"$pg_bin/psql" -h 127.0.0.1 -p "$PG_PORT" -U postgres -tAc "select 1 from pg_database where datname='questline_test'" | grep -q 1 \
  || "$pg_bin/psql" -h 127.0.0.1 -p "$PG_PORT" -U postgres -qc "create database questline_test" >/dev/null

if ! redis-cli -p "$REDIS_PORT" ping >/dev/null 2>&1; then
  redis-server --port "$REDIS_PORT" --bind 127.0.0.1 --save '' --appendonly no --daemonize yes \
    --logfile "$BASE/redis.log" >/dev/null
  for _ in $(seq 1 30); do
    redis-cli -p "$REDIS_PORT" ping >/dev/null 2>&1 && break
    sleep 0.5
  done
fi

echo "export TEST_DATABASE_URL=postgres://postgres@127.0.0.1:$PG_PORT/questline_test"
echo "export TEST_REDIS_URL=redis://127.0.0.1:$REDIS_PORT/0"
