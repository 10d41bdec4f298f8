"""The compose file describes the scaled-out shape with the same variables as the settings."""

from pathlib import Path

import yaml

DOCKER = Path(__file__).resolve().parents[2] / "docker"
APP_SERVICES = {"migrate", "web1", "web2", "worker", "beat"}


def compose():
    return yaml.safe_load((DOCKER / "compose.yaml").read_text())


def test_compose_has_the_scaled_out_services():
    services = compose()["services"]
    assert set(services) == APP_SERVICES | {"nginx", "postgres", "redis"}
    assert services["worker"]["command"][:3] == ["celery", "-A", "config"]
    assert "worker" in services["worker"]["command"]
    assert "beat" in services["beat"]["command"]
    for web in ("web1", "web2"):
        assert "command" not in services[web]  # the image's Daphne command
        assert (
            services[web]["depends_on"]["migrate"]["condition"] == "service_completed_successfully"
        )


def test_app_services_share_the_settings_variables():
    services = compose()["services"]
    for name in APP_SERVICES:
        env = services[name]["environment"]
        assert env["DJANGO_ENV"] == "production"
        assert env["DATABASE_URL"].startswith("postgres://")
        assert env["DATABASE_URL"].endswith("@postgres:5432/classroom")
        assert env["REDIS_URL"] == "redis://redis:6379/0"
        for required in ("SECRET_KEY", "ALLOWED_HOSTS"):
            assert required in env


def test_nginx_balances_both_replicas_and_upgrades_websockets():
    conf = (DOCKER / "nginx.conf").read_text()
    assert "server web1:8000 " in conf and "server web2:8000 " in conf
    assert "proxy_set_header Upgrade $http_upgrade;" in conf
    assert "proxy_set_header Connection $connection_upgrade;" in conf
    assert compose()["services"]["nginx"]["volumes"] == [
        "./nginx.conf:/etc/nginx/conf.d/default.conf:ro"
    ]


def test_image_runs_daphne_as_a_non_root_user():
    dockerfile = (DOCKER / "Dockerfile").read_text()
    assert 'CMD ["python", "-m", "config.server"' in dockerfile
    assert "config.asgi:application" in dockerfile
    assert "\nUSER classroom" in dockerfile


def test_replicas_are_checked_by_readiness_and_nginx_waits_for_them():
    services = compose()["services"]
    for web in ("web1", "web2"):
        probe = " ".join(services[web]["healthcheck"]["test"])
        assert "/readyz" in probe
    assert {name: dep["condition"] for name, dep in services["nginx"]["depends_on"].items()} == {
        "web1": "service_healthy",
        "web2": "service_healthy",
    }
    assert "inspect ping" in " ".join(services["worker"]["healthcheck"]["test"])
    conf = (DOCKER / "nginx.conf").read_text()
    assert "proxy_next_upstream error timeout http_502 http_503;" in conf
    assert "location = /livez" in conf
