"""The "Volunteers" group: the model permissions a club volunteer needs in the admin.

What a volunteer sees is narrowed by their roles (organizer, scorekeeper, club manager) in
tournaments/admin.py; the group only opens the doors those roles may use.
"""

from django.db import migrations

GROUP = "Volunteers"
PERMISSIONS = {
    "club": ("view", "change"),
    "player": ("view", "add", "change"),
    "team": ("view", "add", "change"),
    "tournament": ("view", "add", "change"),
    "entry": ("view", "add", "change", "delete"),
    "round": ("view", "change"),
    "match": ("view", "add", "change"),
    "game": ("view", "change"),
    "hand": ("view", "add", "change", "delete"),
    "historicalhand": ("view",),
    "forbiddenpair": ("view", "add", "change", "delete"),
    "standing": ("view",),
    "standingssnapshot": ("view",),
    "taskrecord": ("view",),
}


def create_group(apps, schema_editor):
    from django.contrib.auth.management import create_permissions

    # Permissions are made after migrations (post_migrate); make this app's now, on a fresh database.
    config = apps.get_app_config("tournaments")
    models_module = getattr(config, "models_module", None)
    config.models_module = True
    create_permissions(config, apps=apps, verbosity=0)
    config.models_module = models_module
    Group = apps.get_model("auth", "Group")
    Permission = apps.get_model("auth", "Permission")
    group, _ = Group.objects.get_or_create(name=GROUP)
    codenames = [f"{action}_{model}" for model, actions in PERMISSIONS.items() for action in actions]
    group.permissions.add(*Permission.objects.filter(content_type__app_label="tournaments", codename__in=codenames))


def delete_group(apps, schema_editor):
    apps.get_model("auth", "Group").objects.filter(name=GROUP).delete()


class Migration(migrations.Migration):
    dependencies = [
        ("auth", "0012_alter_user_first_name_max_length"),
        ("contenttypes", "0002_remove_content_type_name"),
        ("tournaments", "0005_standings_changes"),
    ]

    operations = [migrations.RunPython(create_group, delete_group)]
