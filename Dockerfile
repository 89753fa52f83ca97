# The service's image: gunicorn serving config.asgi (the pages, the API and the live pages' WebSockets) or
# config.wsgi (HTTP alone, docker-compose's web), also used by the Celery workers (docker-compose.yml).
FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1 \
    WEB_CONCURRENCY=2

WORKDIR /app

# WeasyPrint (the PDF downloads of the print pages) needs pango and a font; TIME_ZONE needs the zone database.
RUN apt-get update \
    && apt-get install -y --no-install-recommends libpango-1.0-0 libpangoft2-1.0-0 fonts-dejavu-core tzdata \
    && rm -rf /var/lib/apt/lists/*

# The dependencies first, in a layer that changes only with pyproject.toml or constraints.txt (a change to
# the source rebuilds from the COPY below): pyproject's dependencies at constraints.txt's exact versions,
# and the build backend the project is then built with.
COPY pyproject.toml constraints.txt ./
RUN python -c "import tomllib; print('\n'.join(tomllib.load(open('pyproject.toml', 'rb'))['project']['dependencies']))" \
        > /tmp/requirements.txt \
    && pip install -c constraints.txt -r /tmp/requirements.txt setuptools \
    && rm /tmp/requirements.txt

COPY . .
# The project itself, without its dependencies (installed above). Static files are collected with the
# production storage (compressed, for whitenoise); the key and the throwaway database are there only
# because the settings need them to load.
RUN pip install --no-deps --no-build-isolation . \
    && DEBUG=0 SECRET_KEY=collectstatic-only DATABASE_URL=sqlite:////tmp/collectstatic.sqlite3 \
       python manage.py collectstatic --noinput \
    && rm -f /tmp/collectstatic.sqlite3 \
    && groupadd --system app \
    && useradd --system --gid app --home-dir /app --no-create-home app

USER app
EXPOSE 8000

# One container serves everything: gunicorn (config/gunicorn.py; WEB_CONCURRENCY workers) with uvicorn
# workers, the live pages' WebSockets in the event loop and HTTP in ASGI_HTTP_THREADS threads a worker
# (config/asgi.py); the channel layer on Redis carries the live updates between the workers.
# docker-compose runs this command as "live" and HTTP from "web" (sync WSGI workers) behind nginx.
CMD ["gunicorn", "config.asgi:application", "-c", "python:config.gunicorn", "-k", "config.uvicorn_worker.Worker"]
