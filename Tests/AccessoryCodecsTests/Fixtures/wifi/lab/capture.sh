#!/bin/sh
# Runs INSIDE the lab VM (see README.md in the folder above for the vng commands).
# Starts one hostapd per config in CONFDIR, each on its own mac80211_hwsim radio
# (config N, in name order, on wlanN), records the air on hwsim0, scans from the
# radio after the last one and dumps the kernel's scan results raw.
# usage: capture.sh OUTDIR [CONFDIR (default: hostapd)] [COUNTRY (regulatory domain)]
#                   [FREQUENCIES (MHz, space-separated: scan only these)]
set -u
here=$(dirname "$0")
out=$1
confdir=$here/${2:-hostapd}
country=${3:-}
freqs=${4:-}
mkdir -p "$out" /run/lab
configs=$(ls "$confdir"/*.conf)
radios=$(($(echo "$configs" | wc -l) + 1))
scanner=wlan$((radios - 1))
# Every ssid= or ssid2= line is one BSS.
expected=$(cat $configs | grep -c '^ssid2\?=')
modprobe mac80211_hwsim radios=$radios
sleep 1
if [ -n "$country" ]; then
    iw reg set "$country"
    sleep 1
    iw reg get | head -3
fi
ip link set hwsim0 up
for conf in $configs; do
    name=$(basename "$conf" .conf)
    hostapd -B -P "/run/lab/$name.pid" -f "/run/lab/$name.log" "$conf" \
        || { echo "hostapd failed for $name:"; cat "/run/lab/$name.log"; }
done
sleep 3
tcpdump -i hwsim0 -s 0 -w "$out/beacons.pcap" 'type mgt subtype beacon' &
dump=$!
sleep 2
kill $dump
ip link set "$scanner" up
# A hidden AP ignores wildcard probes, so only its beacon can be heard, and only
# when the scan dwells on its channel at the right moment: scan until every BSS
# is in the kernel's table, at most 6 times.
for attempt in 1 2 3 4 5 6; do
    iw dev "$scanner" scan ${freqs:+freq $freqs} > "$out/iw-scan.txt" 2>&1 || { echo "scan failed"; cat "$out/iw-scan.txt"; }
    seen=$(grep -c '^BSS' "$out/iw-scan.txt")
    echo "scan $attempt: $seen of $expected BSSes"
    [ "$seen" -ge "$expected" ] && break
done
/usr/bin/python3 "$here/nl80211_get_scan.py" "$scanner" "$out/get-scan-$scanner.nlmsg"
grep -H . /run/lab/*.log | grep -i "fail\|error\|invalid" || true
wait
