// The accessoryd page: the administrator's interface (org.accessoryagent.Admin1)
// through cockpit.dbus, as the logged-in user. No server of its own: cockpit-bridge
// carries the calls to the system bus, and the bus (and accessoryd) decide whether
// this user may make them.
/* global cockpit */

const SERVICE = "org.accessoryagent";
const ROOT = "/org/accessoryagent";
const ADMIN = "org.accessoryagent.Admin1";
const ACCESS_DENIED = "org.freedesktop.DBus.Error.AccessDenied";
const POLL_MS = 2000;
const JOURNAL_MS = 10000;
// The decisions' MESSAGE_IDs (packaging/accessoryd.catalog).
const DECISIONS = {
    "3209c5fa32a041dd9176aeef15669876": "Approved",
    "9342c212d42647619b55025c26f248ce": "Denied",
    "217f1e95c7174f8f88b850b8fa57f568": "Nothing found",
    "6e35865fa440452a80a3030b3d64cab1": "Removed",
    "6296f7a50469499eaa9650df64f86a35": "Renamed",
    "f2a07bd6da49453b9ac0ac0a84e704e6": "Window opened",
    "6bfc9492d34f45c094f3c3e1cf821195": "Window closed",
};

const bus = cockpit.dbus(SERVICE, { bus: "system" });
const $ = id => document.getElementById(id);

let mode = null;              // "admin", "denied", "unavailable"
let editing = null;           // the accessory id whose rename form is open
let lastRequests = "";
let lastAccessories = "";
let knownApps = new Set();
// Product images by path: a promise of a data: URL (Cockpit's default CSP allows data:
// images and no blob: ones), read once per page load.
const images = new Map();

function call(method, signature, args) {
    return bus.call(ROOT, ADMIN, method, args, { type: signature });
}

function element(tag, attributes = {}, ...children) {
    const node = document.createElement(tag);
    for (const [key, value] of Object.entries(attributes)) {
        if (key === "text") node.textContent = value;
        else if (key.startsWith("on")) node.addEventListener(key.slice(2), value);
        else if (value !== undefined && value !== null && value !== false) node.setAttribute(key, value === true ? "" : value);
    }
    for (const child of children) if (child) node.append(child);
    return node;
}

function say(text) {
    $("status").textContent = text;
}

function failed(what, error) {
    say(`${what} failed: ${error.message || error}`);
}

// Four bars, as a phone shows signal; 127 is "not known" on accessoryd's wire.
function signalBars(rssi) {
    const known = rssi !== 127;
    const bars = !known ? 0 : rssi >= -55 ? 4 : rssi >= -67 ? 3 : rssi >= -80 ? 2 : 1;
    const label = known ? `signal ${bars} of 4 (${rssi} dBm)` : "signal not known";
    const meter = element("span", { class: "bars", role: "img", "aria-label": label, title: label });
    for (let index = 1; index <= 4; index++)
        meter.append(element("span", { class: index <= bars ? "bar on" : "bar" }));
    return meter;
}

// Re-rendering keeps the keyboard where it was: the focused control is found again by its key.
function keepingFocus(render) {
    const key = document.activeElement && document.activeElement.dataset ? document.activeElement.dataset.key : undefined;
    render();
    if (key) {
        const again = document.querySelector(`[data-key="${CSS.escape(key)}"]`);
        if (again) again.focus();
    }
}

function show(next) {
    if (mode === next) return;
    mode = next;
    $("admin").hidden = next !== "admin";
    $("not-allowed").hidden = next !== "denied";
    $("unavailable").hidden = next !== "unavailable";
    $("page").setAttribute("aria-busy", "false");
    document.body.dataset.mode = next;
}

function refused(error) {
    if (error && error.name === ACCESS_DENIED) {
        show("denied");
        return true;
    }
    if (error && (error.problem === "not-found" || error.name === "org.freedesktop.DBus.Error.ServiceUnknown" ||
                  error.name === "org.freedesktop.DBus.Error.NameHasNoOwner")) {
        show("unavailable");
        $("unavailable-detail").textContent = error.message || "";
        return true;
    }
    return false;
}

// ---------------------------------------------------------------------------------------
// Pending requests

async function readRequests() {
    const [rows] = await call("ListRequests", "", []);
    const requests = [];
    for (const [number, app, kind, items, count, itemImages, secondsLeft] of rows) {
        let candidates = [];
        if (count > 0) {
            try {
                [candidates] = await call("ListCandidates", "u", [number]);
            } catch (error) {
                // Decided meanwhile: it leaves the list at the next read.
                if (error.name === ACCESS_DENIED) throw error;
            }
        }
        requests.push({ number, app, kind, items, images: itemImages || [], secondsLeft, candidates });
    }
    return requests;
}

// The product image's bytes through cockpit.file, as the logged-in user: accessoryd checked
// the file when it loaded the app's manifest (a PNG in /usr/share/accessoryd/images or
// /etc/accessoryd/images, world-readable) and passes only its path on the bus.
function productImage(path) {
    if (!images.has(path)) {
        images.set(path, cockpit.file(path, { binary: true, max_read_size: 1 << 20 }).read().then(bytes => {
            if (!bytes || bytes.length === 0) throw new Error("empty");
            let text = "";
            for (let index = 0; index < bytes.length; index += 0x8000)
                text += String.fromCharCode.apply(null, bytes.subarray(index, index + 0x8000));
            return `data:image/png;base64,${window.btoa(text)}`;
        }));
    }
    return images.get(path);
}

// A 180×120 box (AccessorySetupKit's size) on a neutral ground, with the item's name under it.
function productFigure(name, path, app) {
    const box = element("div", { class: "image-box" });
    const figure = element("figure", { class: "product" }, box, element("figcaption", { text: name }));
    if (!path) {
        box.append(element("span", { class: "no-image", text: "No picture" }));
        return figure;
    }
    const image = element("img", { alt: `${name}, as ${app} shows it`, "data-path": path, width: 180, height: 120 });
    box.append(image);
    productImage(path).then(url => { image.src = url; },
                            error => {
                                image.replaceWith(element("span", { class: "no-image", text: "Picture not readable" }));
                                console.warn(`product image ${path}: ${error.message || error}`);
                            });
    return figure;
}

function timeLeft(seconds) {
    if (seconds < 0) return "";
    if (seconds < 60) return `Looking for another ${seconds} s`;
    return `Looking for another ${Math.ceil(seconds / 60)} min`;
}

/** Whether it is present, and when it was last heard: "Present, heard 3 s ago". */
function presence(present, secondsSinceHeard) {
    if (secondsSinceHeard < 0) return present ? "Present" : "Not present, not heard since accessoryd started";
    const ago = secondsSinceHeard < 120 ? `${secondsSinceHeard} s`
        : secondsSinceHeard < 7200 ? `${Math.floor(secondsSinceHeard / 60)} min`
        : `${Math.floor(secondsSinceHeard / 3600)} h`;
    return `${present ? "Present" : "Not present"}, last seen ${ago} ago`;
}

function renderRequests(requests) {
    const list = $("request-list");
    list.replaceChildren();
    $("no-requests").hidden = requests.length > 0;
    for (const request of requests) {
        knownApps.add(request.app);
        const titleId = `request-${request.number}-title`;
        const card = element("li", { class: "card request", "data-request": request.number, "aria-labelledby": titleId });
        card.append(element("h3", { id: titleId, text: `${request.app} asks for ${request.items.join(", ")}` }));
        card.append(element("p", { class: "meta",
            text: request.kind === "migration" ? `Request ${request.number}: accessories the gateway already knows`
                                               : `Request ${request.number}` },
            element("span", { class: "time-left", "data-time-left": request.number, role: "timer",
                              text: timeLeft(request.secondsLeft) })));
        if (request.kind !== "migration")
            card.append(element("div", { class: "products" },
                ...request.items.map((item, index) => productFigure(item, request.images[index], request.app))));
        if (request.candidates.length === 0) {
            card.append(element("p", { class: "empty", text: "Looking for devices… none heard yet." }));
        } else {
            const table = element("table", { class: "candidates" },
                element("caption", { class: "visually-hidden", text: `Devices heard for request ${request.number}` }),
                element("thead", {}, element("tr", {},
                    element("th", { scope: "col", text: "Device" }),
                    element("th", { scope: "col", text: "Signal" }),
                    element("th", { scope: "col" }, element("span", { class: "visually-hidden", text: "Action" })))));
            const body = element("tbody");
            for (const [candidate, item, name, kind, identity, rssi] of request.candidates) {
                const shown = name || item;
                body.append(element("tr", { "data-candidate": candidate },
                    element("td", {}, element("span", { class: "name", text: shown }),
                        element("span", { class: "identity", text: `${kind === "wifi" ? "Wi-Fi" : "Bluetooth"} ${identity}` }),
                        item && item !== shown ? element("span", { class: "identity", text: `as ${item}` }) : null),
                    element("td", {}, signalBars(rssi)),
                    element("td", {}, element("button", {
                        class: "primary approve", type: "button", "data-key": `approve-${request.number}-${candidate}`,
                        "aria-label": `Approve ${shown} for ${request.app}`, text: "Approve",
                        onclick: () => approve(request, candidate, shown),
                    }))));
            }
            table.append(body);
            card.append(table);
        }
        card.append(element("div", { class: "actions" }, element("button", {
            class: "deny", type: "button", "data-key": `deny-${request.number}`,
            "aria-label": `Deny ${request.app}'s request`, text: "Deny",
            onclick: () => deny(request),
        })));
        list.append(card);
    }
}

async function approve(request, candidate, name) {
    say(`Approving ${name} for ${request.app}…`);
    try {
        await call("Approve", "uus", [request.number, candidate, ""]);
        say(`${name} approved for ${request.app}.`);
    } catch (error) {
        if (!refused(error)) failed(`Approving ${name}`, error);
    }
    refresh();
    readJournal();
}

async function deny(request) {
    try {
        await call("Deny", "u", [request.number]);
        say(`${request.app}'s request denied.`);
    } catch (error) {
        if (!refused(error)) failed("Denying", error);
    }
    refresh();
    readJournal();
}

// ---------------------------------------------------------------------------------------
// Approved accessories, per app

function renderAccessories(rows) {
    const host = $("accessory-list");
    host.replaceChildren();
    $("no-accessories").hidden = rows.length > 0;
    const byApp = new Map();
    for (const [id, app, name, state, identity, present, secondsSinceHeard] of rows) {
        knownApps.add(app);
        if (!byApp.has(app)) byApp.set(app, []);
        byApp.get(app).push({ id, app, name, state, identity, present, secondsSinceHeard });
    }
    for (const [app, accessories] of [...byApp.entries()].sort()) {
        const headingId = `app-${app}`;
        const group = element("section", { class: "app", "aria-labelledby": headingId },
            element("h3", { id: headingId, text: app }));
        const list = element("ul", { class: "cards" });
        for (const accessory of accessories) {
            const item = element("li", { class: "card accessory", "data-accessory": accessory.id });
            if (editing === accessory.id) {
                const inputId = `rename-${accessory.id}`;
                const form = element("form", { class: "inline-form rename",
                    onsubmit: event => { event.preventDefault(); rename(accessory, form.elements.name.value); } },
                    element("label", { for: inputId, text: `New name for ${accessory.name}` }),
                    element("input", { id: inputId, name: "name", value: accessory.name, required: true, maxlength: 64,
                                       "data-key": `rename-input-${accessory.id}` }),
                    element("button", { type: "submit", class: "primary", text: "Save", "data-key": `rename-save-${accessory.id}` }),
                    element("button", { type: "button", text: "Cancel", "data-key": `rename-cancel-${accessory.id}`,
                                        onclick: () => { editing = null; lastAccessories = ""; refresh(); } }));
                item.append(form);
            } else {
                item.append(element("span", { class: "name", text: accessory.name }));
            }
            item.append(element("dl", {},
                element("dt", { text: "Identity" }), element("dd", { text: accessory.identity || "—" }),
                element("dt", { text: "State" }), element("dd", { text: accessory.state }),
                element("dt", { text: "Presence" }),
                element("dd", { "data-presence": accessory.id, text: presence(accessory.present, accessory.secondsSinceHeard) }),
                element("dt", { text: "Id" }), element("dd", { text: accessory.id })));
            item.append(element("div", { class: "actions" },
                element("button", { type: "button", class: "rename-button", "data-key": `rename-${accessory.id}`,
                                    "aria-label": `Rename ${accessory.name}`, text: "Rename",
                                    onclick: () => startRename(accessory) }),
                element("button", { type: "button", class: "danger remove-button", "data-key": `remove-${accessory.id}`,
                                    "aria-label": `Remove ${accessory.name}`, text: "Remove",
                                    onclick: () => confirmRemove(accessory) })));
            list.append(item);
        }
        group.append(list);
        host.append(group);
    }
    const datalist = $("known-apps");
    datalist.replaceChildren(...[...knownApps].sort().map(app => element("option", { value: app })));
}

function startRename(accessory) {
    editing = accessory.id;
    lastAccessories = "";
    refresh().then(() => {
        const input = $(`rename-${accessory.id}`);
        if (input) { input.focus(); input.select(); }
    });
}

async function rename(accessory, name) {
    try {
        await call("RenameAccessory", "ss", [accessory.id, name.trim()]);
        say(`${accessory.name} is now called ${name.trim()}.`);
        editing = null;
    } catch (error) {
        if (!refused(error)) failed("Renaming", error);
    }
    lastAccessories = "";
    refresh();
    readJournal();
}

function confirmRemove(accessory) {
    const dialog = $("confirm-remove");
    $("confirm-remove-text").textContent =
        `${accessory.app} loses ${accessory.name} (${accessory.identity || accessory.id}); it must be approved again to come back.`;
    dialog.returnValue = "";
    dialog.onclose = async () => {
        if (dialog.returnValue !== "remove") return;
        try {
            await call("RemoveAccessory", "s", [accessory.id]);
            say(`${accessory.name} removed from ${accessory.app}.`);
        } catch (error) {
            if (!refused(error)) failed("Removing", error);
        }
        refresh();
        readJournal();
    };
    dialog.showModal();
}

// ---------------------------------------------------------------------------------------
// Approval windows

function setUpWindows() {
    $("window-form").addEventListener("submit", async event => {
        event.preventDefault();
        const app = $("window-app").value.trim();
        const minutes = Number($("window-minutes").value);
        try {
            await call("Allow", "su", [app, Math.round(minutes * 60)]);
            $("window-status").textContent = `${app}'s next matching device is approved without asking, for ${minutes} minutes.`;
        } catch (error) {
            if (!refused(error)) $("window-status").textContent = `Could not open the window: ${error.message}`;
        }
        readJournal();
    });
    $("window-close").addEventListener("click", async () => {
        const app = $("window-app").value.trim();
        if (!app) { $("window-app").focus(); return; }
        try {
            await call("Disallow", "s", [app]);
            $("window-status").textContent = `${app}'s window is closed.`;
        } catch (error) {
            if (!refused(error)) $("window-status").textContent = `Could not close the window: ${error.message}`;
        }
        readJournal();
    });
}

// ---------------------------------------------------------------------------------------
// The decisions journal: journalctl as this user (or as root where the session may).

async function readJournal() {
    if (mode !== "admin") return;
    const argv = ["journalctl", "--no-pager", "-o", "json", "-r", "-n", "40",
        ...Object.keys(DECISIONS).map(id => `MESSAGE_ID=${id}`)];
    let output;
    try {
        output = await cockpit.spawn(argv, { superuser: "try", err: "message" });
    } catch (error) {
        $("journal-status").hidden = false;
        $("journal-status").textContent = `The journal could not be read: ${error.message}`;
        return;
    }
    const entries = output.split("\n").filter(line => line.trim()).map(line => {
        try { return JSON.parse(line); } catch { return null; }
    }).filter(Boolean);
    const list = $("journal-list");
    list.replaceChildren();
    $("journal-status").hidden = entries.length > 0;
    $("journal-status").textContent = "No decision in the journal (or none you may read: the journal's readers are " +
        "root and the groups adm and systemd-journal).";
    for (const entry of entries) {
        const when = new Date(Number(entry.__REALTIME_TIMESTAMP) / 1000);
        const message = typeof entry.MESSAGE === "string" ? entry.MESSAGE : "";
        list.append(element("li", {},
            element("time", { datetime: when.toISOString(), text: when.toLocaleString() }),
            element("span", { class: "kind", text: DECISIONS[entry.MESSAGE_ID] || "" }),
            element("span", { class: "message", text: message }),
            entry.DECIDED_BY ? element("span", { class: "by", text: `by ${entry.DECIDED_BY}` }) : null));
    }
}

// ---------------------------------------------------------------------------------------

async function refresh() {
    try {
        const requests = await readRequests();
        const [accessories] = await call("ListAccessories", "", []);
        show("admin");
        // The time left changes at every read: it is written in place, not re-rendered.
        const requestKey = JSON.stringify(requests.map(request => ({ ...request, secondsLeft: request.secondsLeft < 0 })));
        if (requestKey !== lastRequests) {
            lastRequests = requestKey;
            keepingFocus(() => renderRequests(requests));
        }
        for (const request of requests) {
            const span = document.querySelector(`[data-time-left="${request.number}"]`);
            if (span) span.textContent = timeLeft(request.secondsLeft);
        }
        // The last-seen time changes at every read too: written in place, like the time left.
        const accessoryKey = JSON.stringify([accessories.map(row => row.slice(0, 6)), editing]);
        if (accessoryKey !== lastAccessories && !(editing && lastAccessories)) {
            lastAccessories = accessoryKey;
            keepingFocus(() => renderAccessories(accessories));
        }
        for (const [id, , , , , present, secondsSinceHeard] of accessories) {
            const presenceText = document.querySelector(`[data-presence="${id}"]`);
            if (presenceText) presenceText.textContent = presence(present, secondsSinceHeard);
        }
    } catch (error) {
        if (!refused(error)) failed("Reading accessoryd", error);
    }
}

async function start() {
    setUpWindows();
    try {
        const user = await cockpit.user();
        $("not-allowed-user").textContent = `You are logged in as ${user.name}.`;
    } catch { /* the name is a courtesy */ }
    await refresh();
    readJournal();
    window.setInterval(() => { if (document.visibilityState === "visible") refresh(); }, POLL_MS);
    window.setInterval(() => { if (document.visibilityState === "visible") readJournal(); }, JOURNAL_MS);
}

start();
