#!/bin/sh
# Runs inside the lab VM (see README.md): hostapd serves three networks on hwsim radios
# (wlan1 Home-Gateway WPA2, wlan2 Lamp-Setup WPA2, wlan3 Plug-WPA3 SAE), wpa_supplicant
# runs on wlan0, and capture_control.py records a conversation. Usage: capture-control.sh OUTDIR
set -eu
here=$(dirname "$0")
out=$1
modprobe mac80211_hwsim radios=4
sleep 1
mkdir -p /run/cap/hostapd /run/cap/wpa_supplicant
conf() { # name iface extra...
  f=/run/cap/$1.conf; shift; i=$1; shift
  printf 'interface=%s\ndriver=nl80211\nctrl_interface=/run/cap/hostapd\nhw_mode=g\nchannel=6\n' "$i" > "$f"
  for l in "$@"; do printf '%s\n' "$l" >> "$f"; done
  hostapd -B -t -dd -f "$out/hostapd-$i.log" "$f"
}
conf home wlan1 ssid=Home-Gateway wpa=2 wpa_key_mgmt=WPA-PSK rsn_pairwise=CCMP wpa_passphrase=home-passphrase
conf lamp wlan2 ssid=Lamp-Setup wpa=2 wpa_key_mgmt=WPA-PSK rsn_pairwise=CCMP 'wpa_passphrase=lamp pass "quoted" phrase'
conf plug wlan3 ssid=Plug-WPA3 wpa=2 wpa_key_mgmt=SAE rsn_pairwise=CCMP ieee80211w=2 'sae_password=plug sae password'
sleep 2
wpa_supplicant -B -t -dd -D nl80211 -i wlan0 -C /run/cap/wpa_supplicant -f "$out/wpa_supplicant-wlan0.log"
sleep 1
python3 "$here/capture_control.py" /run/cap/wpa_supplicant wlan0 "$out"
uname -r > "$out/kernel.txt"
wpa_supplicant -v | head -1 > "$out/version.txt"
