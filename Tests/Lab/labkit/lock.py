"""The lock of the pairing scenarios: lab-peripheral's characteristic that answers only over an
encrypted link, and the manifest of an app that declares pairing for it."""

SERVICE = "4C616253-656E-736F-7200-000000000001"
CHARACTERISTIC = "4C616253-656E-736F-7200-000000000002"
VALUE = "door locked"
APP = f"""\
[App]
Name=lock-app
User=nobody
Supports=Bluetooth

[Bluetooth]
ServiceUUIDs={SERVICE}
Names=Lab Sensor
Pairing=yes
"""
