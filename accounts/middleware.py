"""Pages count and show days in the signed-in user's time zone (accounts.User.time_zone): a
teacher in Madrid reads an answer given at 00:30 on Monday as Monday's, whatever the site's
TIME_ZONE."""

from asgiref.sync import iscoroutinefunction
from django.utils import timezone
from django.utils.decorators import sync_and_async_middleware


def _activate(user) -> None:
    if user is not None and user.is_authenticated and user.time_zone:
        timezone.activate(user.zone)
    else:
        timezone.deactivate()


@sync_and_async_middleware
def user_time_zone_middleware(get_response):
    if iscoroutinefunction(get_response):

        async def middleware(request):
            # request.user would query synchronously here, on the loop; the user read once
            # serves the view too (auser and user keep separate caches).
            request.user = await request.auser()
            _activate(request.user)
            return await get_response(request)

    else:

        def middleware(request):
            _activate(getattr(request, "user", None))
            return get_response(request)

    return middleware
