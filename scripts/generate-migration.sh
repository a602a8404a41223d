#!/usr/bin/env bash
# Generates one migration per dialect from the entities: `npm run migration:generate -- AddPolicySets`.
# Each dialect is diffed against a scratch database that has every existing migration applied,
# so the new file holds exactly what the entities changed.
set -euo pipefail
name="${1:?usage: npm run migration:generate -- MigrationName}"
cd "$(dirname "$0")/.."
mysql_base="${MIGRATION_MYSQL_URL:-mariadb://root@127.0.0.1:3306}"
scratch="$(mktemp -d)"
db="plinth_gen_$$_$RANDOM"
cleanup() {
  rm -rf "$scratch"
  mariadb -h127.0.0.1 -uroot -e "DROP DATABASE IF EXISTS \`$db\`" 2>/dev/null || true
}
trap cleanup EXIT

cli() { npx typeorm-ts-node-commonjs "$@" -d ormconfig.ts; }

export SIGNING_SECRET=generate-migration-signing-secret-32b DATA_DIR="$scratch"
DATABASE_URL="sqlite:$scratch/gen.sqlite" cli migration:run >/dev/null
DATABASE_URL="sqlite:$scratch/gen.sqlite" npx typeorm-ts-node-commonjs migration:generate -p -d ormconfig.ts "src/persistence/migrations/sqlite/$name" || true

mariadb -h127.0.0.1 -uroot -e "CREATE DATABASE \`$db\` CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci"
DATABASE_URL="$mysql_base/$db" cli migration:run >/dev/null
DATABASE_URL="$mysql_base/$db" npx typeorm-ts-node-commonjs migration:generate -p -d ormconfig.ts "src/persistence/migrations/mysql/$name" || true
npx prettier --write "src/persistence/migrations/**/*.ts" >/dev/null
