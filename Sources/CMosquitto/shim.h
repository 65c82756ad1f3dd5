// libmosquitto, Debian's libmosquitto-dev: the MQTT client accessory-mqtt drives from its own loop.
#include <mosquitto.h>
