#!/bin/bash
# Behaves like the official mysql image's entrypoint for the parts Testcontainers and users rely on:
# refuses to start without a root password choice, initialises the data directory once, creates
# root@'%', MYSQL_DATABASE and MYSQL_USER/MYSQL_PASSWORD, runs /docker-entrypoint-initdb.d/*, then
# execs the server in the foreground.
set -eo pipefail

log() { printf '%s [Entrypoint]: %s\n' "$(date -u +%FT%TZ)" "$*"; }

if [ "${1:0:1}" = '-' ]; then set -- mariadbd "$@"; fi
case "$1" in mariadbd|mysqld) ;; *) exec "$@" ;; esac
shift

DATADIR=/var/lib/mysql
SOCKET=/run/mysqld/mysqld.sock

sql() { mariadb --protocol=socket --socket="$SOCKET" -uroot "$@"; }

if [ ! -d "$DATADIR/mysql" ]; then
  if [ -z "$MYSQL_ROOT_PASSWORD" ] && [ -z "$MYSQL_ALLOW_EMPTY_PASSWORD" ] && [ -z "$MYSQL_RANDOM_ROOT_PASSWORD" ]; then
    echo >&2 'error: database is uninitialized and password option is not specified'
    echo >&2 '  You need to specify one of the following as an environment variable:'
    echo >&2 '  - MYSQL_ROOT_PASSWORD'
    echo >&2 '  - MYSQL_ALLOW_EMPTY_PASSWORD'
    echo >&2 '  - MYSQL_RANDOM_ROOT_PASSWORD'
    exit 1
  fi
  log 'Initializing database files'
  mariadb-install-db --user=mysql --datadir="$DATADIR" --skip-test-db \
    --auth-root-authentication-method=normal >/dev/null
  log 'Starting temporary server'
  mariadbd --user=mysql --datadir="$DATADIR" --skip-networking --socket="$SOCKET" &
  pid=$!
  for _ in $(seq 1 150); do sql -e 'SELECT 1' >/dev/null 2>&1 && break; sleep 0.1; done
  sql -e 'SELECT 1' >/dev/null || { echo >&2 'error: temporary server did not start'; exit 1; }

  if [ -n "$MYSQL_RANDOM_ROOT_PASSWORD" ]; then
    MYSQL_ROOT_PASSWORD=$(head -c 18 /dev/urandom | base64)
    log "GENERATED ROOT PASSWORD: $MYSQL_ROOT_PASSWORD"
  fi
  esc() { printf '%s' "$1" | sed "s/\\\\/\\\\\\\\/g; s/'/\\\\'/g"; }
  root_pw=$(esc "$MYSQL_ROOT_PASSWORD")
  {
    echo "CREATE USER IF NOT EXISTS 'root'@'%' IDENTIFIED BY '$root_pw';"
    echo "GRANT ALL ON *.* TO 'root'@'%' WITH GRANT OPTION;"
    echo "ALTER USER 'root'@'localhost' IDENTIFIED BY '$root_pw';"
    if [ -n "$MYSQL_DATABASE" ]; then
      echo "CREATE DATABASE IF NOT EXISTS \`$MYSQL_DATABASE\`;"
    fi
    if [ -n "$MYSQL_USER" ] && [ "$MYSQL_USER" != root ]; then
      echo "CREATE USER '$(esc "$MYSQL_USER")'@'%' IDENTIFIED BY '$(esc "$MYSQL_PASSWORD")';"
      [ -n "$MYSQL_DATABASE" ] && echo "GRANT ALL ON \`$MYSQL_DATABASE\`.* TO '$(esc "$MYSQL_USER")'@'%';"
    fi
    echo "FLUSH PRIVILEGES;"
  } | sql

  auth=(-uroot "--password=$MYSQL_ROOT_PASSWORD")
  for f in /docker-entrypoint-initdb.d/*; do
    case "$f" in
      *.sh) log "running $f"; . "$f" ;;
      *.sql) log "running $f"; mariadb --socket="$SOCKET" "${auth[@]}" ${MYSQL_DATABASE:+"$MYSQL_DATABASE"} <"$f" ;;
      *.sql.gz) log "running $f"; gunzip -c "$f" | mariadb --socket="$SOCKET" "${auth[@]}" ${MYSQL_DATABASE:+"$MYSQL_DATABASE"} ;;
      *) [ -e "$f" ] && log "ignoring $f" ;;
    esac
  done

  kill "$pid"; wait "$pid" || true
  log 'Temporary server stopped; init process done. Ready for start up.'
fi

exec mariadbd --user=mysql --datadir="$DATADIR" "$@"
