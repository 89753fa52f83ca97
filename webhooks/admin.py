"""Webhook endpoints in the admin, with their delivery log and a "send a test event" action."""

from django.contrib import admin, messages
from django.db import models
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext

from tournaments.access import is_organizer, is_unscoped, organized_tournaments
from tournaments.query_text import NullSafeAdminMixin

from .models import Delivery, Endpoint
from .services import endpoint_send_test


class DeliveryInline(admin.TabularInline):
    model = Delivery
    fields = ("created_at", "event", "status", "attempts", "response_status", "duration_ms", "error",
              "response_body")
    readonly_fields = fields
    extra = 0
    max_num = 0
    can_delete = False
    ordering = ("-id",)
    show_change_link = True

    def get_queryset(self, request):
        return super().get_queryset(request).order_by("-id")


@admin.register(Endpoint)
class EndpointAdmin(NullSafeAdminMixin, admin.ModelAdmin):
    list_display = ("url", "tournament", "active", "events", "created_at")
    list_filter = ("active",)
    search_fields = ("url", "description", "tournament__name")
    list_select_related = ("tournament",)
    readonly_fields = ("secret", "created_by", "created_at", "updated_at")
    fields = ("tournament", "url", "description", "events", "active", "secret", "created_by", "created_at",
              "updated_at")
    inlines = [DeliveryInline]
    formfield_overrides = {models.URLField: {"assume_scheme": "https"}}
    actions = ["send_test_event"]

    def get_queryset(self, request):
        qs = super().get_queryset(request)
        return qs if is_unscoped(request.user) else qs.filter(tournament__in=organized_tournaments(request.user))

    def has_change_permission(self, request, obj=None):
        allowed = super().has_change_permission(request, obj)
        return allowed and (obj is None or is_organizer(request.user, obj.tournament_id))

    def has_delete_permission(self, request, obj=None):
        allowed = super().has_delete_permission(request, obj)
        return allowed and (obj is None or is_organizer(request.user, obj.tournament_id))

    def formfield_for_foreignkey(self, db_field, request, **kwargs):
        if db_field.name == "tournament" and not is_unscoped(request.user):
            kwargs["queryset"] = organized_tournaments(request.user)
        return super().formfield_for_foreignkey(db_field, request, **kwargs)

    def save_model(self, request, obj, form, change):
        if not change and obj.created_by_id is None:
            obj.created_by = request.user
        super().save_model(request, obj, form, change)

    @admin.action(description=_("Send a test event"))
    def send_test_event(self, request, queryset):
        count = 0
        for endpoint in queryset.select_related("tournament"):
            if is_organizer(request.user, endpoint.tournament_id):
                endpoint_send_test(endpoint=endpoint)
                count += 1
        self.message_user(request, ngettext("A test event was queued for %(n)d endpoint; see its deliveries.",
                                           "A test event was queued for %(n)d endpoints; see their deliveries.",
                                           count) % {"n": count}, messages.SUCCESS)


@admin.register(Delivery)
class DeliveryAdmin(NullSafeAdminMixin, admin.ModelAdmin):
    list_display = ("created_at", "event", "endpoint", "status", "attempts", "response_status", "duration_ms")
    list_filter = ("status", "event")
    list_select_related = ("endpoint", "endpoint__tournament")
    readonly_fields = ("endpoint", "event_id", "event", "body", "status", "attempts", "response_status",
                       "response_body", "duration_ms", "error", "created_at", "attempted_at")
    fields = readonly_fields

    def get_queryset(self, request):
        qs = super().get_queryset(request)
        if is_unscoped(request.user):
            return qs
        return qs.filter(endpoint__tournament__in=organized_tournaments(request.user))

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False
