#!/usr/bin/python3
"""The system tier's browser: headless Chromium (Debian's chromium and chromium-driver,
driven with selenium) against the guest's cockpit-ws, as a person uses the Accessories page.

Run by the runner (Tests/System/system) when the guest says "BROWSER go":

    browser.py --url http://127.0.0.1:PORT --out DIR --app-done FILE

1. Logs in through Cockpit's login page as the administrator (PAM, a password), opens
   the page in Cockpit's shell, waits for the app's request with the sensor as a candidate
   and its product image (the manifest's PNG, decoded by the browser at its full size in the
   180×120 box), shows it in the dark theme too, and approves it with the keyboard only
   (Tab to the Approve button, Enter).
2. Waits for the accessory under the app, and for FILE (the runner creates it when the guest
   says the app has read the sensor), then renames it and removes it, confirming.
3. Logs in again as a user who is no administrator: the page says "not allowed"; and as a
   user in no administrator group whom a polkit rule allows: the page works for them.

A screenshot of each step goes to DIR (request, request in the dark theme, phone width,
approved, renamed, confirm, removed, not allowed). The last line is `PASS what happened` or `FAIL why`; exit status 1
on failure.
"""

import argparse
import os
import re
import sys
import time
import traceback

from selenium import webdriver
from selenium.common.exceptions import TimeoutException
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support import expected_conditions as EC
from selenium.webdriver.support.ui import WebDriverWait

ADMIN = ("installer", "installer-pw-7")      # the runner's COCKPIT_USERS
VISITOR = ("visitor", "visitor-pw-7")
HELPER = ("helper", "helper-pw-7")          # polkit allows it (a rule in the image)
APP = "sensor-logger"
SENSOR = "Lab Sensor"
NEW_NAME = "Porch sensor"
IMAGE = "/usr/share/accessoryd/images/sensor-logger/lab-sensor.png"   # the guest manifest's ProductImage=
IMAGE_SIZE = (540, 360)
FRAME = "cockpit1:localhost/accessoryd"
WIDE = (1280, 900)
PHONE = (390, 844)
STEPS = []


def step(text):
    STEPS.append(text)
    print(f"step: {text}", flush=True)


class Browser:
    def __init__(self, url, out):
        self.url = url.rstrip("/")
        self.out = out
        options = webdriver.ChromeOptions()
        options.binary_location = "/usr/bin/chromium"
        for flag in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                     f"--window-size={WIDE[0]},{WIDE[1]}", "--lang=en-US"):
            options.add_argument(flag)
        service = webdriver.ChromeService(executable_path="/usr/bin/chromedriver") \
            if hasattr(webdriver, "ChromeService") else webdriver.chrome.service.Service("/usr/bin/chromedriver")
        self.driver = webdriver.Chrome(service=service, options=options)
        self.driver.set_page_load_timeout(180)

    def wait(self, condition, timeout, what):
        try:
            return WebDriverWait(self.driver, timeout, poll_frequency=0.5).until(condition)
        except TimeoutException:
            # No second wait for the frame here: after one timeout the verdict must still
            # reach the guest within its limit.
            self.shot(f"timeout-{what.replace(' ', '-')[:40]}", back_into_page=False)
            raise AssertionError(f"no {what} within {timeout} s")

    def shot(self, name, back_into_page=True):
        self.driver.switch_to.default_content()
        path = os.path.join(self.out, f"{name}.png")
        self.driver.save_screenshot(path)
        if back_into_page:
            try:
                self.page()
            except Exception:
                pass
        return path

    def page(self):
        """Into the page's frame inside Cockpit's shell."""
        self.driver.switch_to.default_content()
        frame = self.wait(EC.presence_of_element_located((By.CSS_SELECTOR, f'iframe[name="{FRAME}"]')), 240,
                          "the Accessories page's frame in the shell")
        self.driver.switch_to.frame(frame)

    def login(self, user, password):
        """Cockpit's login page, shown for the page's own address until a session exists: after
        PAM accepted the password, the shell loads there with the page in its frame. Under
        emulation on a loaded host, cockpit-ws can give up on the session's start first
        ("Authentication failed: Timeout"): then a person logs in again, and so does this, once."""
        for attempt in (1, 2):
            self.driver.delete_all_cookies()
            self.driver.get(self.url + "/accessoryd")
            self.wait(EC.element_to_be_clickable((By.ID, "login-user-input")), 180, "Cockpit's login page")
            self.driver.find_element(By.ID, "login-user-input").send_keys(user)
            self.driver.find_element(By.ID, "login-password-input").send_keys(password)
            self.driver.find_element(By.ID, "login-button").click()
            if attempt == 2:
                break
            timed_out = EC.text_to_be_present_in_element((By.ID, "login-fatal-message"), "Timeout")
            frame = EC.presence_of_element_located((By.CSS_SELECTOR, f'iframe[name="{FRAME}"]'))
            if self.wait(EC.any_of(frame, timed_out), 240, "the shell or Cockpit's login timeout") is not True:
                break
            self.shot("login-timed-out", back_into_page=False)
            print("Cockpit's login timed out; logging in again", flush=True)
        self.page()

    def resize(self, size):
        self.driver.switch_to.default_content()
        self.driver.set_window_size(*size)
        time.sleep(1)
        self.page()

    def logout(self):
        """A fresh browser session: the session cookie gone, the next page is the login page."""
        self.driver.switch_to.default_content()
        self.driver.delete_all_cookies()        # while on Cockpit's origin: its cookies


def approve_button(browser):
    xpath = (f'//li[contains(@class,"request")][.//h3[contains(., "{APP}")]]'
             f'//tr[contains(., "{SENSOR}")]//button[contains(@class,"approve")]')
    return browser.wait(EC.element_to_be_clickable((By.XPATH, xpath)), 300,
                        f"{APP}'s request with {SENSOR!r} as a candidate")


def product_image(browser):
    """The request's product image once the browser has decoded it: its natural and shown size."""
    xpath = f'//li[contains(@class,"request")][.//h3[contains(., "{APP}")]]//div[@class="image-box"]/img[@data-path="{IMAGE}"]'

    def decoded(driver):
        for image in driver.find_elements(By.XPATH, xpath):
            size = driver.execute_script(
                "const i = arguments[0]; return i.complete && i.naturalWidth > 0 ? "
                "[i.naturalWidth, i.naturalHeight, i.clientWidth, i.clientHeight, i.parentElement.clientWidth, "
                "i.parentElement.clientHeight] : null", image)
            if size:
                return size
        return False
    return browser.wait(decoded, 120, f"{APP}'s product image {IMAGE} decoded in its request")


def dark_theme(browser, on):
    """The page's dark theme, as a system set to dark asks for it (prefers-color-scheme)."""
    browser.driver.execute_cdp_cmd("Emulation.setEmulatedMedia", {
        "features": [{"name": "prefers-color-scheme", "value": "dark" if on else "light"}]})


def approve_with_keyboard(browser):
    """Tab from the page's start to the request's Approve button and press Enter: the
    keyboard alone. Returns how many Tabs it took, or None when the button never had focus."""
    browser.driver.execute_script("window.focus(); if (document.activeElement) document.activeElement.blur();")
    for tabs in range(1, 41):
        ActionChains(browser.driver).send_keys(Keys.TAB).perform()
        focused = browser.driver.switch_to.active_element
        label = focused.get_attribute("aria-label") or ""
        if "approve" in (focused.get_attribute("class") or "") and SENSOR in label and APP in label:
            ActionChains(browser.driver).send_keys(Keys.ENTER).perform()
            return tabs
    return None


APP_CARDS = f'//section[contains(@class,"app")][.//h3[text()="{APP}"]]//li[contains(@class,"accessory")]'


def accessory_ids(browser):
    return {card.get_attribute("data-accessory") for card in browser.driver.find_elements(By.XPATH, APP_CARDS)}


def new_accessory(browser, before, timeout=120):
    """The accessory that appeared under the app since `before`: (id, name)."""
    def appeared(driver):
        for card in driver.find_elements(By.XPATH, APP_CARDS):
            if card.get_attribute("data-accessory") not in before:
                return card
        return False
    card = browser.wait(appeared, timeout, f"a new accessory under {APP}")
    return card.get_attribute("data-accessory"), card.find_element(By.CSS_SELECTOR, ".name").text


def accessory_card(browser, accessory, name=None, timeout=120):
    xpath = f'{APP_CARDS}[@data-accessory="{accessory}"]'
    if name:
        xpath += f'[.//span[@class="name" and text()="{name}"]]'
    return browser.wait(EC.presence_of_element_located((By.XPATH, xpath)), timeout,
                        f"the accessory {accessory} under {APP}" + (f" named {name!r}" if name else ""))


def run(args):
    browser = Browser(args.url, args.out)
    try:
        browser.login(*ADMIN)
        step(f"logged in to Cockpit as {ADMIN[0]} (login page, PAM)")
        button = approve_button(browser)
        label = button.get_attribute("aria-label")
        natural_w, natural_h, shown_w, shown_h, box_w, box_h = product_image(browser)
        assert (natural_w, natural_h) == IMAGE_SIZE, f"the product image decoded as {natural_w}×{natural_h}"
        assert (box_w, box_h) == (180, 120), f"the image's box is {box_w}×{box_h}, not 180×120"
        browser.shot("01-request")
        dark_theme(browser, True)
        background = browser.driver.execute_script("return getComputedStyle(document.body).backgroundColor")
        product_image(browser)
        browser.shot("01-request-dark")
        dark_theme(browser, False)
        browser.resize(PHONE)
        browser.shot("02-request-phone")
        browser.resize(WIDE)
        step(f"the request appeared with its candidate ({label!r}) and its product image {IMAGE} "
             f"({natural_w}×{natural_h} shown {shown_w}×{shown_h} in a {box_w}×{box_h} box; dark theme: body {background})")
        before = accessory_ids(browser)
        approve_button(browser)
        tabs = approve_with_keyboard(browser)
        keyboard_problem = None
        if tabs is None:
            keyboard_problem = "Tab never reached the request's Approve button (40 presses); approved with a click instead"
            approve_button(browser).click()
        accessory, name = new_accessory(browser, before)
        # Present or not by now (the app may already hold its connection, which stops the
        # sensor's advertising), but heard as a candidate: so last seen some time ago.
        presence = browser.wait(lambda driver: next(
            (element.text for element in driver.find_elements(By.CSS_SELECTOR, f'[data-presence="{accessory}"]')
             if re.fullmatch(r"(Present|Not present), last seen \d+ (s|min|h) ago", element.text)), False),
            60, f"{accessory} shown with its presence and when it was last seen")
        browser.shot("03-approved")
        step(f"approved {'with the keyboard (' + str(tabs) + ' Tab, Enter)' if tabs else 'with a click'}: "
             f"accessory {accessory} ({name!r}) listed under {APP}, {presence!r}")

        deadline = time.monotonic() + 480
        while not os.path.exists(args.app_done):
            assert time.monotonic() < deadline, "the guest never said the app had ended"
            time.sleep(1)
        step("the guest says the app has ended (it checks the read itself)")

        browser.page()
        card = accessory_card(browser, accessory)
        card.find_element(By.CSS_SELECTOR, "button.rename-button").click()
        field = browser.wait(EC.element_to_be_clickable((By.ID, f"rename-{accessory}")), 30, "the rename field")
        field.send_keys(Keys.CONTROL, "a")
        field.send_keys(NEW_NAME)
        field.send_keys(Keys.ENTER)
        accessory_card(browser, accessory, NEW_NAME)
        browser.shot("04-renamed")
        browser.resize(PHONE)
        browser.shot("05-accessories-phone")
        browser.resize(WIDE)
        step(f"renamed to {NEW_NAME!r} from the page")

        accessory_card(browser, accessory, NEW_NAME).find_element(By.CSS_SELECTOR, "button.remove-button").click()
        confirm = browser.wait(EC.element_to_be_clickable((By.ID, "confirm-remove-button")), 30,
                               "the removal's confirmation")
        browser.shot("06-remove-confirm")
        confirm.click()
        browser.wait(EC.invisibility_of_element_located(
            (By.XPATH, f'//li[contains(@class,"accessory")][@data-accessory="{accessory}"]')), 60,
            "the accessory gone from the page")
        # The decisions journal lists the removal (the administrator reads the journal).
        browser.wait(lambda d: "Removed" in d.find_element(By.ID, "journal-list").text, 60,
                     "the removal in the decisions journal")
        browser.shot("07-removed")
        step("removed from the page after confirming; the decisions journal lists it")

        # An approval window for the app, opened and closed again from the page.
        app_field = browser.driver.find_element(By.ID, "window-app")
        app_field.clear()
        app_field.send_keys(APP)
        minutes = browser.driver.find_element(By.ID, "window-minutes")
        minutes.clear()
        minutes.send_keys("5")
        browser.driver.find_element(By.CSS_SELECTOR, '#window-form button[type="submit"]').click()
        browser.wait(lambda d: "approved without asking" in d.find_element(By.ID, "window-status").text, 60,
                     "the approval window's confirmation")
        browser.driver.find_element(By.ID, "window-close").click()
        browser.wait(lambda d: "window is closed" in d.find_element(By.ID, "window-status").text, 60,
                     "the approval window closed")
        step(f"an approval window for {APP} opened for 5 minutes and closed again from the page")
        browser.logout()

        browser.login(*VISITOR)
        refusal = browser.wait(EC.visibility_of_element_located((By.ID, "not-allowed")), 120,
                               f"the 'not allowed' page for {VISITOR[0]}")
        text = refusal.text
        assert "not allowed" in text, f"the refusal says: {text!r}"
        admin_hidden = browser.driver.find_element(By.ID, "admin").get_attribute("hidden") is not None
        assert admin_hidden, "the administrator's lists are shown to a user who may not use them"
        browser.shot("08-not-allowed")
        step(f"{VISITOR[0]} (no administrator) sees the 'not allowed' page")
        browser.logout()

        browser.login(*HELPER)
        browser.wait(EC.visibility_of_element_located((By.ID, "requests")), 120,
                     f"the requests list for {HELPER[0]}, whom polkit allows")
        browser.shot("09-polkit-user")
        step(f"{HELPER[0]}, in no administrator group, uses the page: polkit allows org.accessoryagent.administer")
        assert not keyboard_problem, keyboard_problem
        return True
    finally:
        try:
            with open(os.path.join(args.out, "last-page.html"), "w") as handle:
                handle.write(browser.driver.page_source)
        except Exception:
            pass
        browser.driver.quit()


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--url", required=True)
    parser.add_argument("--out", required=True)
    parser.add_argument("--app-done", required=True)
    args = parser.parse_args()
    os.makedirs(args.out, exist_ok=True)
    try:
        run(args)
    except Exception as error:
        traceback.print_exc(file=sys.stdout)
        print(f"FAIL after {len(STEPS)} steps ({'; '.join(STEPS[-2:]) or 'none'}): {error}", flush=True)
        return 1
    print(f"PASS in Chromium: {'; '.join(STEPS)}; screenshots {', '.join(sorted(os.listdir(args.out)))}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
