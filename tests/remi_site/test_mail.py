"""The embedded default's mail: on the console and in a file under var/mail/."""

from __future__ import annotations

from django.core import mail


def test_each_message_goes_to_the_console_and_to_a_file(tmp_path, capsys):
    connection = mail.get_connection(
        "remi_site.mail.ConsoleAndFileBackend", file_path=str(tmp_path / "mail")
    )
    link = "http://127.0.0.1:8000/accounts/reset/MQ/abc-123/"

    sent = connection.send_messages(
        [mail.EmailMessage("Choose a new password", f"Open {link}", to=["ana@example.com"])]
    )

    files = list((tmp_path / "mail").iterdir())
    assert sent == 1
    assert len(files) == 1 and link in files[0].read_text()
    assert link in capsys.readouterr().out
