"""The "Volunteers" group opens the admin's pairs of players kept apart (individual events, issue 26), as it opens
the teams' forbidden pairs: what a volunteer sees of them is still narrowed to the tournaments they organize."""

from django.db import migrations

GROUP = "Volunteers"
PERMISSIONS = {"keptapart": ("view", "add", "change", "delete")}


def add_permissions(apps, schema_editor):
    from django.contrib.auth.management import create_permissions

    # Permissions are made after migrations (post_migrate); make this app's now, as 0006 does.
    config = apps.get_app_config("tournaments")
    models_module = getattr(config, "models_module", None)
    config.models_module = True
    create_permissions(config, apps=apps, verbosity=0)
    config.models_module = models_module
    group = apps.get_model("auth", "Group").objects.filter(name=GROUP).first()
    if group is None:  # removed by the site's administrators: nothing to open
        return
    Permission = apps.get_model("auth", "Permission")
    codenames = [f"{action}_{model}" for model, actions in PERMISSIONS.items() for action in actions]
    group.permissions.add(*Permission.objects.filter(content_type__app_label="tournaments", codename__in=codenames))


def remove_permissions(apps, schema_editor):
    group = apps.get_model("auth", "Group").objects.filter(name=GROUP).first()
    if group is None:
        return
    codenames = [f"{action}_{model}" for model, actions in PERMISSIONS.items() for action in actions]
    group.permissions.remove(*apps.get_model("auth", "Permission").objects.filter(
        content_type__app_label="tournaments", codename__in=codenames))


class Migration(migrations.Migration):
    dependencies = [
        ("tournaments", "0014_individual_events"),
    ]

    operations = [migrations.RunPython(add_permissions, remove_permissions)]
