"""The deployment of docs/deploy.md, started on this machine: the environment file, the
systemd units' commands and the nginx site file are read from that page, and only the
values it names for a real deployment (addresses, ports, paths, secrets) are replaced.

A value the page no longer holds fails the test: the page and the test move together.
"""

from __future__ import annotations

import contextlib
import os
import re
import shlex
import shutil
import signal
import socket
import ssl
import subprocess
import tempfile
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

import httpx
import trustme

from tests.sites import ROOT, free_port, wait_for

DEPLOY_DOC = ROOT / "docs" / "deploy.md"
# The two web nodes' own loopback addresses (Linux routes all of 127.0.0.0/8 to lo).
NODE_ADDRESSES = ("127.0.0.2", "127.0.0.3")
PROXY_ADDRESS = "127.0.0.1"


def doc_blocks(language: str) -> list[str]:
    """The fenced code blocks of docs/deploy.md in ``language``, in order."""
    text = DEPLOY_DOC.read_text()
    return re.findall(rf"```{language}\n(.*?)```", text, flags=re.DOTALL)


def replaced(text: str, replacements: dict[str, str], *, what: str) -> str:
    for old, new in replacements.items():
        assert old in text, f"docs/deploy.md's {what} no longer holds {old!r}"
        text = text.replace(old, new)
    return text


def environment_file() -> dict[str, str]:
    """The variables of the page's /etc/remi/env block."""
    (block,) = [b for b in doc_blocks("sh") if b.startswith("SECRET_KEY=")]
    pairs = (line.split("=", 1) for line in block.splitlines() if "=" in line)
    return {name: value for name, value in pairs}


def unit_commands() -> dict[str, str]:
    """Each unit's ExecStart, by its Description's last word (``%i``: the node)."""
    commands = {}
    for block in doc_blocks("ini"):
        description = re.search(r"^Description=(.*)$", block, flags=re.MULTILINE)
        command = re.search(r"^ExecStart=(.*)$", block, flags=re.MULTILINE)
        assert description and command, block
        role = "web" if "%i" in command.group(1) else description.group(1).split()[-1]
        commands[role] = command.group(1)
    return commands


@dataclass
class Process:
    name: str
    command: list[str]
    log_path: Path
    process: subprocess.Popen[bytes] | None = None

    def start(self, env: dict[str, str]) -> None:
        with self.log_path.open("ab") as log:
            self.process = subprocess.Popen(
                self.command,
                cwd=ROOT,
                env=env,
                stdout=log,
                stderr=subprocess.STDOUT,
                start_new_session=True,  # its own process group: a worker's pool with it
            )

    def running(self) -> bool:
        return self.process is not None and self.process.poll() is None

    def kill(self, sig: signal.Signals = signal.SIGKILL) -> None:
        if self.running():
            assert self.process is not None
            with contextlib.suppress(ProcessLookupError):
                os.killpg(self.process.pid, sig)
            with contextlib.suppress(subprocess.TimeoutExpired):
                self.process.wait(20)
        if self.running():
            assert self.process is not None
            os.killpg(self.process.pid, signal.SIGKILL)
            self.process.wait()

    def log(self) -> str:
        return self.log_path.read_text(errors="replace")


@dataclass
class Deployment:
    """nginx with TLS in front of two web nodes, a worker and beat, on PostgreSQL and
    Redis, as docs/deploy.md describes it."""

    venv: Path
    database_url: str
    redis_url: str
    extra_env: dict[str, str] = field(default_factory=dict)
    dir: Path = field(default_factory=lambda: Path(tempfile.mkdtemp(prefix="remi-deploy-")))
    processes: dict[str, Process] = field(default_factory=dict)

    def __post_init__(self) -> None:
        self.node_port = _port_free_on(NODE_ADDRESSES)
        self.https_port = free_port()
        self.http_port = free_port()
        self.url = f"https://{PROXY_ADDRESS}:{self.https_port}"
        self.ca = trustme.CA()
        self.ca_path = self.dir / "ca.pem"
        self.ca.cert_pem.write_to_path(str(self.ca_path))

    # ------------------------------------------------------------ configuration

    def env(self) -> dict[str, str]:
        keep = {"PATH", "HOME", "LANG", "LC_ALL", "TZ"}
        base = {name: value for name, value in os.environ.items() if name in keep}
        ours = {
            "SECRET_KEY": "deploy-test-" + "x" * 50,
            "DATABASE_URL": self.database_url,
            "REDIS_URL": self.redis_url,
            "ALLOWED_HOSTS": PROXY_ADDRESS,
            "CSRF_TRUSTED_ORIGINS": self.url,
            "SITE_URL": self.url,
            "PROXY_COUNT": "1",
            "TRUST_X_FORWARDED_PROTO": "true",
            "EMAIL_URL": "consolemail://",
            "STATIC_ROOT": str(self.dir / "staticfiles"),
            "CELERY_BEAT_SCHEDULE_FILENAME": str(self.dir / "celerybeat-schedule"),
            "REMI_VAR_DIR": str(self.dir / "var"),
        }
        documented = environment_file()
        missing = sorted(set(documented) - set(ours))
        assert not missing, f"docs/deploy.md's environment has variables the test lacks: {missing}"
        # The values a production deployment keeps as the page has them.
        assert documented["PROXY_COUNT"] == "1" and documented["TRUST_X_FORWARDED_PROTO"] == "true"
        return {**base, **ours, **self.extra_env}

    def command(self, role: str, node: str | None = None) -> list[str]:
        line = unit_commands()[role]
        line = replaced(line, {"/srv/remi/.venv/bin/": f"{self.venv}/bin/"}, what=role)
        if role == "web":
            assert node is not None
            line = replaced(
                line,
                {"%i": node, "--port 8000": f"--port {self.node_port}", "--workers 2": ""},
                what="web unit",
            )
            # One process per node on two shared cores.
            line += " --workers 1"
        if role in ("worker", "push"):
            line = replaced(line, {"--concurrency 2": "--concurrency 1"}, what=f"{role} unit")
        return shlex.split(line)

    def nginx_site(self) -> str:
        (site,) = doc_blocks("nginx")
        cert = self.ca.issue_cert(PROXY_ADDRESS, "localhost")
        cert_path, key_path = self.dir / "fullchain.pem", self.dir / "privkey.pem"
        cert.private_key_pem.write_to_path(str(key_path))
        cert.cert_chain_pems[0].write_to_path(str(cert_path))
        first, second = (f"{address}:{self.node_port}" for address in NODE_ADDRESSES)
        return replaced(
            site,
            {
                "10.0.0.11:8000": first,
                "10.0.0.12:8000": second,
                "listen 80;": f"listen {PROXY_ADDRESS}:{self.http_port};",
                "listen 443 ssl;": f"listen {PROXY_ADDRESS}:{self.https_port} ssl;",
                "remi.example.com": PROXY_ADDRESS,
                "/etc/ssl/remi/fullchain.pem": str(cert_path),
                "/etc/ssl/remi/privkey.pem": str(key_path),
            },
            what="nginx site",
        )

    def nginx_conf(self) -> Path:
        """Debian's nginx.conf would include the site; here a minimal one does, with its
        files in this deployment's folder."""
        temp = self.dir / "nginx-temp"
        temp.mkdir()
        temp.chmod(0o777)  # nginx's workers run as nobody when the master is root
        (self.dir / "remi.conf").write_text(self.nginx_site())
        conf = self.dir / "nginx.conf"
        conf.write_text(
            f"worker_processes 1;\npid {self.dir}/nginx.pid;\n"
            f"error_log {self.dir}/nginx-error.log;\n"
            "events { worker_connections 1024; }\n"
            "http {\n"
            f"  access_log {self.dir}/nginx-access.log;\n"
            + "".join(
                f"  {kind}_temp_path {temp}/{kind};\n"
                for kind in ("client_body", "proxy", "fastcgi", "uwsgi", "scgi")
            )
            + f"  include {self.dir}/remi.conf;\n}}\n"
        )
        return conf

    # ------------------------------------------------------------ running

    def manage(self, *args: str) -> None:
        subprocess.run(
            [f"{self.venv}/bin/python", "manage.py", *args, "-v", "0"],
            cwd=ROOT,
            env=self.env(),
            check=True,
            capture_output=True,
        )

    def start(self) -> None:
        env = self.env()
        # The release steps of the page, in its order.
        self.manage("migrate", "--noinput")
        self.manage("collectstatic", "--noinput")
        self.manage("ensure_bots")
        nginx = shutil.which("nginx") or "/usr/sbin/nginx"
        assert Path(nginx).exists(), "nginx is not installed (scripts/ensure_services.sh)"
        wanted = {
            "nginx": [
                nginx,
                "-p",
                str(self.dir),
                "-c",
                str(self.nginx_conf()),
                "-g",
                "daemon off;",
            ],
        }
        # Every other unit of the page: the worker, the push worker, beat.
        for role in unit_commands():
            if role != "web":
                wanted[role] = self.command(role)
        for index, address in enumerate(NODE_ADDRESSES):
            wanted[f"node{index}"] = self.command("web", address)
        for name, command in wanted.items():
            process = Process(name, command, self.dir / f"{name}.log")
            process.start(env)
            self.processes[name] = process
        wait_for(self._healthy, timeout=120, what=f"a healthy deployment:\n{self.logs()}")

    def restart(self, name: str) -> None:
        """Start a process again, as systemd's Restart=always would."""
        process = self.processes[name]
        assert not process.running()
        process.start(self.env())
        wait_for(self._healthy, timeout=60, what=f"{name} back:\n{self.logs()}")

    def _healthy(self) -> bool:
        for process in self.processes.values():
            assert process.running(), f"{process.name} exited:\n{process.log()[-4000:]}"
        return all(self.node_health(index) == 200 for index in range(len(NODE_ADDRESSES)))

    def node_health(self, index: int) -> int:
        """A node's /healthz, asked directly (as a load balancer probes it)."""
        url = f"http://{NODE_ADDRESSES[index]}:{self.node_port}/healthz"
        try:
            return httpx.get(url, headers={"Host": PROXY_ADDRESS}, timeout=5).status_code
        except httpx.HTTPError:
            return 0

    def ssl_context(self) -> ssl.SSLContext:
        context = ssl.create_default_context()
        self.ca.configure_trust(context)
        return context

    def node_log(self, index: int) -> str:
        return self.processes[f"node{index}"].log()

    def logs(self) -> str:
        return "\n".join(
            f"--- {name}\n{process.log()[-3000:]}" for name, process in self.processes.items()
        )

    def stop(self) -> None:
        for process in self.processes.values():
            process.kill(signal.SIGTERM)
        shutil.rmtree(self.dir, ignore_errors=True)

    @contextlib.contextmanager
    def running(self) -> Iterator[Deployment]:
        try:
            self.start()
            yield self
        finally:
            self.stop()


def _port_free_on(addresses: tuple[str, ...]) -> int:
    """A port free on every one of ``addresses``, as each node listens on the same port."""
    for _ in range(50):
        port = free_port()
        probes = []
        try:
            for address in addresses:
                probe = socket.socket()
                probes.append(probe)
                probe.bind((address, port))
            return port
        except OSError:
            continue
        finally:
            for probe in probes:
                probe.close()
    raise AssertionError("no port free on every node address")
