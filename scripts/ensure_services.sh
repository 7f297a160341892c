#!/usr/bin/env bash
# Make sure what the test suite needs is here: PostgreSQL and Redis on their standard
# local ports (started with the machine's own commands if they are down), the
# PostgreSQL database, Debian's Chromium for the browser tests, and the npm packages of
# package-lock.json (the AsyncAPI parser that validates docs/asyncapi.yaml). Fails loudly.
set -euo pipefail

PGHOST=127.0.0.1
PGPORT=5432
PGUSER=postgres
REDIS_PORT=6379

log() { echo "ensure_services: $*" >&2; }
die() { echo "ensure_services: ERROR: $*" >&2; exit 1; }

wait_for() {  # wait_for <seconds> <command...>
    local seconds=$1; shift
    for _ in $(seq 1 "$((seconds * 4))"); do
        if "$@" >/dev/null 2>&1; then return 0; fi
        sleep 0.25
    done
    return 1
}

# ---------------------------------------------------------------- PostgreSQL
pg_up() { pg_isready -q -h "$PGHOST" -p "$PGPORT"; }
command -v pg_isready >/dev/null || die "pg_isready not found: PostgreSQL's client tools are not installed"
if ! pg_up; then
    log "PostgreSQL is not answering on $PGHOST:$PGPORT: starting it"
    command -v pg_ctlcluster >/dev/null || die "pg_ctlcluster not found: cannot start PostgreSQL"
    version=$(ls /etc/postgresql 2>/dev/null | sort -V | tail -n 1)
    [ -n "$version" ] || die "no cluster under /etc/postgresql"
    pg_ctlcluster --skip-systemctl-redirect "$version" main start \
        || die "pg_ctlcluster $version main start failed"
    wait_for 30 pg_up || die "PostgreSQL did not come up on $PGHOST:$PGPORT"
fi
psql_q() { psql -h "$PGHOST" -p "$PGPORT" -U "$PGUSER" -d postgres -v ON_ERROR_STOP=1 -tAc "$1"; }
psql_q "SELECT 1" >/dev/null || die "cannot connect to PostgreSQL as $PGUSER (trust auth expected)"
# The tests create their own databases (test_remi, test_remi_gw0, ...): the role needs CREATEDB.
if [ "$(psql_q "SELECT rolsuper OR rolcreatedb FROM pg_roles WHERE rolname = current_user")" != "t" ]; then
    psql_q "ALTER ROLE $PGUSER CREATEDB" >/dev/null || die "role $PGUSER cannot create databases"
fi
if [ "$(psql_q "SELECT 1 FROM pg_database WHERE datname = 'remi'")" != "1" ]; then
    log "creating database remi"
    psql_q "CREATE DATABASE remi" >/dev/null || die "cannot create database remi"
fi

# ---------------------------------------------------------------- Redis
redis_up() { [ "$(redis-cli -h 127.0.0.1 -p "$REDIS_PORT" ping 2>/dev/null)" = "PONG" ]; }
command -v redis-cli >/dev/null || die "redis-cli not found: Redis is not installed"
if ! redis_up; then
    log "Redis is not answering on 127.0.0.1:$REDIS_PORT: starting it"
    command -v redis-server >/dev/null || die "redis-server not found: cannot start Redis"
    mkdir -p /var/lib/redis /var/log/redis
    redis-server --daemonize yes --bind 127.0.0.1 -::1 --port "$REDIS_PORT" --save "" \
        --appendonly no --dir /var/lib/redis --logfile /var/log/redis/ci.log \
        || die "redis-server failed to start"
    wait_for 15 redis_up || die "Redis did not come up on 127.0.0.1:$REDIS_PORT"
fi

# ---------------------------------------------------------------- Chromium
if [ ! -x /usr/bin/chromium ]; then
    log "installing Debian's chromium for the browser tests"
    export DEBIAN_FRONTEND=noninteractive
    { apt-get update -qq && apt-get install -y -qq chromium >/dev/null; } \
        || die "could not install chromium with apt-get"
fi
# The bots' avatars and a player's own are emoji: without a colour emoji font the
# screenshots would show empty boxes where a person's browser shows the face.
if [ ! -e /usr/share/fonts/truetype/noto/NotoColorEmoji.ttf ]; then
    log "installing Debian's emoji font for the browser tests"
    export DEBIAN_FRONTEND=noninteractive
    { apt-get update -qq && apt-get install -y -qq fonts-noto-color-emoji >/dev/null; } \
        || die "could not install fonts-noto-color-emoji with apt-get"
fi

# ---------------------------------------------------------------- nginx
# tests/deploy/ runs the deployment of docs/deploy.md behind Debian's nginx. Installing the
# package must not start a system nginx on port 80: Debian's policy-rc.d hook says no.
if ! command -v nginx >/dev/null && [ ! -x /usr/sbin/nginx ]; then
    log "installing Debian's nginx for the deployment test"
    export DEBIAN_FRONTEND=noninteractive
    policy=/usr/sbin/policy-rc.d
    made_policy=
    if [ ! -e "$policy" ]; then
        printf '#!/bin/sh\nexit 101\n' > "$policy" && chmod +x "$policy" && made_policy=1
    fi
    { apt-get update -qq && apt-get install -y -qq --no-install-recommends nginx >/dev/null; } \
        || die "could not install nginx with apt-get"
    [ -n "$made_policy" ] && rm -f "$policy"
fi

# ---------------------------------------------------------------- GNU gettext
# tests/remi_site/test_catalogues_current.py collects the catalogues afresh (makemessages
# runs xgettext and msgmerge) to check that the committed ones hold every marked text.
if ! command -v xgettext >/dev/null || ! command -v msgmerge >/dev/null; then
    log "installing Debian's gettext for the catalogues' check"
    { apt-get update -qq && apt-get install -y -qq --no-install-recommends gettext >/dev/null; } \
        || die "could not install gettext with apt-get"
fi

# ---------------------------------------------------------------- npm packages
# The official AsyncAPI parser (package.json, pinned by package-lock.json), into the
# gitignored node_modules/: tests/api/test_asyncapi_parser.py runs it on docs/asyncapi.yaml.
# Installed again only when the lock file changed since the last install (the copy of it kept
# in node_modules records it). No install scripts run: the parser needs none.
ROOT=$(cd "$(dirname "$0")/.." && pwd)
if ! command -v npm >/dev/null; then
    log "installing Debian's nodejs and npm for the contract checks"
    export DEBIAN_FRONTEND=noninteractive
    { apt-get update -qq && apt-get install -y -qq nodejs npm >/dev/null; } \
        || die "could not install nodejs and npm with apt-get"
fi
if ! cmp -s "$ROOT/package-lock.json" "$ROOT/node_modules/.package-lock.json.installed"; then
    log "installing the npm packages of package-lock.json"
    (cd "$ROOT" && npm ci --ignore-scripts --no-audit --no-fund --loglevel=error) \
        || die "npm ci failed (is the npm registry reachable?)"
    cp "$ROOT/package-lock.json" "$ROOT/node_modules/.package-lock.json.installed"
fi

log "PostgreSQL, Redis, Chromium, nginx, gettext and the npm packages are ready"
