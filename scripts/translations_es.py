# ruff: noqa: E501  (translation strings are data; breaking them would hurt more than help)
"""Spanish texts for locale/es (kept here as data so `makemessages` can be re-run and refilled:
`python scripts/translations_es.py` fills every empty msgstr it knows and lists what is missing)."""

import re
import sys
from pathlib import Path

ES = {
    "Accounts": "Cuentas",
    "Your name": "Tu nombre",
    "E-mail": "Correo electrónico",
    "Password": "Contraseña",
    "Password again": "Repite la contraseña",
    "An account with this e-mail already exists.": "Ya existe una cuenta con este correo.",
    "The two passwords differ.": "Las dos contraseñas no coinciden.",
    "That e-mail and password do not match a teacher account.": "Ese correo y esa contraseña no corresponden a ninguna cuenta de docente.",
    "Teacher": "Docente",
    "Student": "Estudiante",
    "Not set": "Sin definir",
    "Picture password": "Contraseña de dibujos",
    "PIN": "PIN",
    "A PIN is %(lo)s to %(hi)s digits.": "Un PIN tiene de %(lo)s a %(hi)s cifras.",
    "A picture password is %(lo)s to %(hi)s pictures from the grid.": "Una contraseña de dibujos tiene de %(lo)s a %(hi)s dibujos de la cuadrícula.",
    "Unknown kind of secret.": "Tipo de clave desconocido.",
    "role": "rol",
    "name": "nombre",
    "kind of secret": "tipo de clave",
    "cat": "gato",
    "dog": "perro",
    "fish": "pez",
    "apple": "manzana",
    "star": "estrella",
    "sun": "sol",
    "tree": "árbol",
    "car": "coche",
    "ball": "pelota",
    "Welcome! Your teacher account is ready.": "¡Bienvenida o bienvenido! Tu cuenta de docente está lista.",
    "Classroom": "Aula",
    "Class code": "Código de la clase",
    "Your PIN": "Tu PIN",
    "Your picture password": "Tu contraseña de dibujos",
    "Class name": "Nombre de la clase",
    "teacher": "docente",
    "class code": "código de la clase",
    "class": "clase",
    "classes": "clases",
    "Class %(name)s is ready. Its class code is %(code)s.": "La clase %(name)s está lista. Su código es %(code)s.",
    "Give the class a name.": "Ponle un nombre a la clase.",
    "No class has that code. Check it with your teacher.": "Ninguna clase tiene ese código. Compruébalo con tu docente.",
    "That PIN is not right. Try again.": "Ese PIN no es correcto. Inténtalo otra vez.",
    "Those pictures are not right. Try again.": "Esos dibujos no son correctos. Inténtalo otra vez.",
    "English": "Inglés",
    "Spanish": "Español",
    "Games": "Juegos",
    "Not allowed": "No permitido",
    "This page is not for you": "Esta página no es para ti",
    "Your account cannot open this page.": "Tu cuenta no puede abrir esta página.",
    "Go to your home page": "Ir a tu página de inicio",
    "Not found": "No encontrado",
    "We could not find that page": "No encontramos esa página",
    "Back to the start": "Volver al principio",
    "Too many tries": "Demasiados intentos",
    "There were too many wrong sign-in attempts. Wait a few minutes and try again, or ask your teacher for help.": "Hubo demasiados intentos fallidos. Espera unos minutos y vuelve a intentarlo, o pide ayuda a tu docente.",
    "Teacher sign-in": "Entrada de docentes",
    "Sign in": "Entrar",
    "Forgot your password?": "¿Olvidaste tu contraseña?",
    "New here?": "¿Eres nuevo?",
    "Create a teacher account": "Crear una cuenta de docente",
    "Are you a student?": "¿Eres estudiante?",
    "Sign in with your class code": "Entra con el código de tu clase",
    "Change your password": "Cambia tu contraseña",
    "Save": "Guardar",
    "This reset link is no longer valid. Ask for a new one.": "Este enlace ya no es válido. Pide uno nuevo.",
    "Password changed": "Contraseña cambiada",
    "Reset your password": "Restablece tu contraseña",
    "Password saved": "Contraseña guardada",
    "Choose a new password": "Elige una contraseña nueva",
    "Check your e-mail": "Revisa tu correo",
    "If an account uses that address, we sent it a link to choose a new password.": "Si alguna cuenta usa esa dirección, le enviamos un enlace para elegir una contraseña nueva.",
    "Someone asked to reset the password of your teacher account at %(site_name)s.": "Alguien pidió restablecer la contraseña de tu cuenta de docente en %(site_name)s.",
    "Choose a new password here:": "Elige una contraseña nueva aquí:",
    "If it was not you, ignore this e-mail.": "Si no fuiste tú, ignora este correo.",
    "Teachers sign up with an e-mail address. Students never need one: you give each a picture password or a PIN.": "Los docentes se registran con un correo. El alumnado nunca lo necesita: a cada estudiante le das una contraseña de dibujos o un PIN.",
    "Create account": "Crear cuenta",
    "Arithmetic games": "Juegos de aritmética",
    "Arithmetic games classroom": "Aula de juegos de aritmética",
    "Skip to content": "Saltar al contenido",
    "Main": "Principal",
    "My classes": "Mis clases",
    "My games": "Mis juegos",
    "Sign out (%(name)s)": "Salir (%(name)s)",
    "Student sign-in": "Entrada de estudiantes",
    "Language": "Idioma",
    "Change": "Cambiar",
    "Practise adding, subtracting and multiplying by playing real tabletop games.": "Practica sumas, restas y multiplicaciones jugando a juegos de mesa de verdad.",
    "Hello, %(name)s!": "¡Hola, %(name)s!",
    "You are in %(class_name)s with %(teacher)s.": "Estás en %(class_name)s con %(teacher)s.",
    "No game yet. When your teacher starts a game or gives you homework, it will appear here.": "Todavía no hay juegos. Cuando tu docente empiece un juego o te ponga deberes, aparecerán aquí.",
    "Steps": "Pasos",
    "Your secret": "Tu clave",
    "Next": "Siguiente",
    "Ask your teacher": "Pregunta a tu docente",
    "Hello, %(name)s": "Hola, %(name)s",
    "You do not have a picture password or PIN yet. Ask your teacher to give you one.": "Todavía no tienes contraseña de dibujos ni PIN. Pide a tu docente que te dé uno.",
    "Back to the names": "Volver a los nombres",
    "Who are you?": "¿Quién eres?",
    "This class has no students yet. Ask your teacher.": "Esta clase todavía no tiene estudiantes. Pregunta a tu docente.",
    "Wrong class? Type the code again": "¿Otra clase? Escribe el código de nuevo",
    "Tap your pictures in order": "Toca tus dibujos en orden",
    "Pictures chosen: {count}": "Dibujos elegidos: {count}",
    "Pictures chosen: %(count)s": "Dibujos elegidos: %(count)s",
    "Start again": "Empezar de nuevo",
    "Not you? Back to the names": "¿No eres tú? Volver a los nombres",
    ("%(counter)s student", 0): "%(counter)s estudiante",
    ("%(counter)s student", 1): "%(counter)s estudiantes",
    "You have no classes yet. Create your first class below; then you will add students, print their login cards and start a game session.": "Todavía no tienes clases. Crea tu primera clase aquí debajo; después añadirás estudiantes, imprimirás sus tarjetas de acceso y empezarás una sesión de juego.",
    "Create a class": "Crear una clase",
    "Create class": "Crear clase",
    "Welcome": "Bienvenida",
    "Play, count, and get faster at arithmetic": "Juega, cuenta y gana rapidez con la aritmética",
    "Children practise adding, subtracting and multiplying by playing five real tabletop games together in class: ¡Mía!, SUM, ADD UP, Mathable Junior and Add or Multiply?. Teachers see who needs help, with which facts.": "Los niños y niñas practican sumas, restas y multiplicaciones jugando juntos en clase a cinco juegos de mesa de verdad: ¡Mía!, SUM, ADD UP, Mathable Junior y Add or Multiply?. El docente ve quién necesita ayuda y con qué operaciones.",
    "I am a student": "Soy estudiante",
    "Type the class code from the board, pick your name and tap your picture password.": "Escribe el código de la clase que está en la pizarra, elige tu nombre y toca tu contraseña de dibujos.",
    "I am a teacher": "Soy docente",
    "Create classes, print login cards, run game sessions and follow each student's progress.": "Crea clases, imprime tarjetas de acceso, dirige sesiones de juego y sigue el progreso de cada estudiante.",
}


_QUOTED = re.compile(r'^(?:msgid|msgid_plural|msgstr(?:\[\d\])?)?\s*"(.*)"$')


def _unquote(lines):
    found = (_QUOTED.match(ln) for ln in lines)
    return "".join(m.group(1) for m in found if m).replace('\\"', '"')


def _quote(text):
    return '"' + text.replace('"', '\\"') + '"'


def fill(po_path: Path) -> list[str]:
    """Fills empty msgstr entries; returns the msgids still without a translation."""
    blocks = po_path.read_text(encoding="utf-8").split("\n\n")
    missing = []
    out = []
    for block in blocks:
        lines = block.split("\n")
        keys = [i for i, ln in enumerate(lines) if re.match(r"^(msgid|msgid_plural|msgstr)", ln)]
        if not keys or not any(ln.startswith("msgid ") for ln in lines):
            out.append(block)
            continue
        parts = {}
        for n, start in enumerate(keys):
            end = keys[n + 1] if n + 1 < len(keys) else len(lines)
            name = lines[start].split(" ", 1)[0]
            parts[name] = (start, end, _unquote(lines[start:end]))
        msgid = parts["msgid"][2]
        if msgid == "":
            out.append(block)
            continue
        head = lines[: keys[0]]
        body = list(lines[keys[0] : parts["msgid"][1]])
        if "msgid_plural" in parts:
            body += lines[parts["msgid_plural"][0] : parts["msgid_plural"][1]]
            for form in (0, 1):
                current = parts.get(f"msgstr[{form}]", (0, 0, ""))[2]
                text = current or ES.get((msgid, form), "")
                if not text:
                    missing.append(msgid)
                body.append(f"msgstr[{form}] {_quote(text)}")
        else:
            current = parts.get("msgstr", (0, 0, ""))[2]
            text = current or ES.get(msgid, "")
            if not text:
                missing.append(msgid)
            body.append(f"msgstr {_quote(text)}")
        head = [ln for ln in head if ln != "#, fuzzy"]
        out.append("\n".join(head + body))
    po_path.write_text("\n\n".join(out), encoding="utf-8")
    return missing


if __name__ == "__main__":
    root = Path(__file__).resolve().parent.parent
    left = fill(root / "locale/es/LC_MESSAGES/django.po")
    for msgid in left:
        print("untranslated:", msgid)
    sys.exit(1 if left else 0)
