"""API tokens in the admin: see who holds one for which device, and revoke it. Keys are never shown."""

from django.contrib import admin

from tournaments.query_text import NullSafeAdminMixin

from .models import AuthToken


@admin.register(AuthToken)
class AuthTokenAdmin(NullSafeAdminMixin, admin.ModelAdmin):
    list_display = ("token_key", "user", "device", "created", "expiry")
    list_filter = ("created",)
    search_fields = ("token_key", "device", "user__username")
    fields = ("token_key", "user", "device", "created", "expiry")
    readonly_fields = fields
    list_select_related = ("user",)

    def has_add_permission(self, request):
        return False  # tokens are issued by POST /api/v1/auth/token/, which shows the key once

    def has_change_permission(self, request, obj=None):
        return False
