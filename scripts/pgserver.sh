#!/usr/bin/env bash
# Runs a command beside a private, throw-away PostgreSQL 15 server:
#
#   scripts/pgserver.sh COMMAND [ARGS...]
#
# A fresh cluster is made in a new temporary folder (initdb), started on a free TCP port on
# 127.0.0.1 with its socket in that folder (pg_ctl), and COMMAND runs with
#   HEADROOM_TEST_SERVER=postgresql://headroom@127.0.0.1:PORT/postgres
# in its environment. Connections from this machine as "headroom" need no password (trust);
# the role "headroom_password" (password "right-password") must give its password, so tests can
# try a wrong one. The server is stopped and its folder removed when this script exits, also
# when COMMAND or the start fails. Exits with COMMAND's status, or 1 when the server cannot
# start. initdb refuses to run as root, so as root the cluster belongs to the "postgres"
# account (or "nobody" when there is none).
set -euo pipefail

if [ $# -eq 0 ]; then
  echo "usage: $0 COMMAND [ARGS...]" >&2
  exit 2
fi

bindir=${HEADROOM_PG_BINDIR:-/usr/lib/postgresql/15/bin}
if [ ! -x "$bindir/initdb" ] || [ ! -x "$bindir/pg_ctl" ]; then
  echo "pgserver.sh: PostgreSQL 15 is not installed ($bindir/initdb missing; install the" \
       "postgresql package, e.g. with scripts/deps.sh)" >&2
  exit 1
fi

dir=$(mktemp -d "${TMPDIR:-/tmp}/headroom-pg.XXXXXX")
chmod 755 "$dir"
as_owner=()
if [ "$(id -u)" -eq 0 ]; then
  owner=postgres
  id -u "$owner" >/dev/null 2>&1 || owner=nobody
  chown "$owner" "$dir"
  as_owner=(runuser -u "$owner" --)
fi

started=0
cleanup() {
  local status=$?
  if [ "$started" -eq 1 ]; then
    "${as_owner[@]}" "$bindir/pg_ctl" -D "$dir/data" -m immediate -w stop >/dev/null 2>&1 || true
  fi
  rm -rf "$dir"
  exit "$status"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

# A free port: the kernel picks one for a socket bound to port 0.
port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')

if ! "${as_owner[@]}" "$bindir/initdb" -D "$dir/data" -U headroom --auth=trust \
     --encoding=UTF8 --locale=C.UTF-8 >"$dir/initdb.log" 2>&1; then
  echo "pgserver.sh: initdb failed:" >&2
  cat "$dir/initdb.log" >&2
  exit 1
fi
# Local test connections only: the socket in this folder and 127.0.0.1; one role needs its password.
cat >"$dir/data/pg_hba.conf" <<'EOF'
local all all trust
host all headroom_password 127.0.0.1/32 scram-sha-256
host all all 127.0.0.1/32 trust
EOF

if ! "${as_owner[@]}" "$bindir/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w -t 60 \
     -o "-c listen_addresses=127.0.0.1 -p $port -c unix_socket_directories=$dir -c fsync=off -c max_connections=100" \
     start >/dev/null; then
  echo "pgserver.sh: the PostgreSQL server did not start:" >&2
  cat "$dir/server.log" >&2 || true
  exit 1
fi
started=1

if ! "${as_owner[@]}" "$bindir/psql" -h "$dir" -p "$port" -U headroom -d postgres -v ON_ERROR_STOP=1 -q \
     -c "CREATE ROLE headroom_password LOGIN CREATEDB PASSWORD 'right-password'" >/dev/null; then
  echo "pgserver.sh: cannot prepare the test roles" >&2
  exit 1
fi

export HEADROOM_TEST_SERVER="postgresql://headroom@127.0.0.1:$port/postgres"
echo "pgserver.sh: PostgreSQL 15 at $HEADROOM_TEST_SERVER (folder $dir)" >&2
set +e
"$@"
status=$?
set -e
exit "$status"
