"""A check that runs before ``migrate``: a database part-way through migrations that a squashed
migration replaces cannot be migrated by this release (the replaced files are gone, so neither the
rest of them nor the squashed one can run), and Django would fail later with an error about a
model it cannot find. This says what to do instead (docs/architecture.md, "Upgrading")."""

from django.core.checks import Error, Tags, register
from django.db import connections
from django.db.migrations.loader import MigrationLoader
from django.db.migrations.recorder import MigrationRecorder


@register(Tags.database)
def squashed_migrations_whole(app_configs=None, databases=None, **kwargs):
    errors = []
    for alias in databases or ():
        connection = connections[alias]
        applied = MigrationRecorder(connection).applied_migrations()
        if not applied:
            continue  # a fresh database: the squashed migrations build it
        loader = MigrationLoader(None, ignore_no_migrations=True)
        for (app, name), migration in sorted(loader.disk_migrations.items()):
            done = [key for key in migration.replaces or () if key in applied]
            if done and len(done) < len(migration.replaces) and (app, name) not in applied:
                errors.append(
                    Error(
                        f"The database {alias!r} has applied {len(done)} of the "
                        f"{len(migration.replaces)} migrations that {app}.{name} replaces "
                        f"(the last: {done[-1][1]}).",
                        hint="Migrate it with the previous release first, then with this one.",
                        id="accounts.E001",
                    )
                )
    return errors
