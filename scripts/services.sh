#!/usr/bin/env bash
# Installs and starts what the system tests need, on Debian as root: PostgreSQL (for the web
# table's storage tests) and Chromium (for the browser test). Writes the database URL the tests
# read into .services.env. Safe to run again.
set -euo pipefail
cd "$(dirname "$0")/.."

export DEBIAN_FRONTEND=noninteractive
missing=()
command -v pg_ctlcluster >/dev/null || missing+=(postgresql)
test -x /usr/bin/chromium || missing+=(chromium)
python3 -c "import ensurepip" 2>/dev/null || missing+=(python3-venv)
if [ ${#missing[@]} -gt 0 ]; then
    apt-get update -qq
    apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

# PostgreSQL: the newest installed version's cluster (created if the package did not), started.
version="$(ls /usr/lib/postgresql | sort -V | tail -n 1)"
if ! pg_lsclusters -h | awk -v v="$version" '$1 == v' | grep -q .; then
    pg_createcluster "$version" main >/dev/null
fi
read -r pg_version pg_cluster pg_port _ < <(pg_lsclusters -h | awk -v v="$version" '$1 == v' | head -n 1)
pg_ctlcluster "$pg_version" "$pg_cluster" status >/dev/null 2>&1 \
    || pg_ctlcluster "$pg_version" "$pg_cluster" start
for _ in $(seq 1 30); do
    pg_isready -q -h 127.0.0.1 -p "$pg_port" && break
    sleep 1
done
pg_isready -q -h 127.0.0.1 -p "$pg_port"
su postgres -c "psql -q -v ON_ERROR_STOP=1 -p $pg_port" <<'SQL'
SELECT 'CREATE ROLE canasta LOGIN PASSWORD ''canasta'''
 WHERE NOT EXISTS (SELECT FROM pg_roles WHERE rolname = 'canasta')\gexec
SELECT 'CREATE DATABASE canasta_test OWNER canasta'
 WHERE NOT EXISTS (SELECT FROM pg_database WHERE datname = 'canasta_test')\gexec
SQL

echo "CANASTA_TEST_POSTGRES_URL=postgresql://canasta:canasta@127.0.0.1:${pg_port}/canasta_test" \
    > .services.env
echo "system test services ready (PostgreSQL on port ${pg_port}, /usr/bin/chromium)"
