# The two commands a new user needs: `make run` and `make test`.

BUILD_PACKAGES := libsqlite3-dev libmarkdown2-dev libssl-dev zlib1g-dev pkg-config
BROWSER_PACKAGES := chromium chromium-driver
# The robustness suite makes a certificate to upload with the openssl command.
ROBUSTNESS_PACKAGES := openssl
# The second backend: the tests run the storage layer on a throwaway server of their own.
POSTGRES_PACKAGES := postgresql
# The cluster suite's load balancer in front of two console instances.
CLUSTER_PACKAGES := nginx
# The device-identity tests check SCEP against an independent client (Debian's scepclient) and
# device signatures made by Python's cryptography, as devices make them.
SIGNING_TEST_PACKAGES := scep python3-cryptography
PORT ?= 8080
DATA ?= data

.PHONY: run run-postgres test build-deps test-deps swift-test browser-test robustness-test cluster-test release screenshots

## Build a release binary and serve the console with demo data on http://127.0.0.1:$(PORT)
run: build-deps release
	mkdir -p $(DATA)
	.build/release/payload-console serve --demo --port $(PORT) --db $(DATA)/payload-console.sqlite --data-dir $(DATA)

## The same on a PostgreSQL server of its own ($(DATA)/postgres), installed when missing
run-postgres: build-deps release
	@scripts/ensure-apt-packages $(POSTGRES_PACKAGES)
	scripts/serve-on-postgres $(DATA) $(PORT)

release:
	swift build -c release --product payload-console

## Unit and integration tests (on SQLite and on a throwaway PostgreSQL), then the browser,
## robustness and cluster tests against the binary those built
test: build-deps test-deps
	scripts/with-throwaway-postgres $(MAKE) swift-test browser-test robustness-test mdm-test cluster-test

swift-test:
	scripts/swift-test-with-summary sqlite
	@# The App suite again on PostgreSQL (one console at a time: each holds its own connections)
	PAYLOAD_CONSOLE_TEST_BACKEND=postgres scripts/swift-test-with-summary postgres --skip-build --no-parallel --filter AppTests
	swift build --product payload-console

browser-test:
	python3 -m unittest discover -s Tests/browser -p 'test_*.py' -v

## Every route with malformed input, schemathesis over the OpenAPI document, a parallel sign-in
## burst and kill -9 crash safety, against the binary (CONSOLE_BINARY to use another)
robustness-test:
	python3 -m unittest discover -s Tests/robustness -p 'test_*.py' -v

## Devices speaking Apple's MDM protocol to the binary: enrollment through the real profile and
## SCEP (Debian's scepclient), signed check-ins and commands, and every hostile message refused
mdm-test:
	python3 -m unittest discover -s Tests/mdm -p 'test_*.py' -v

## Two instances on one PostgreSQL database behind nginx: sessions, throttle and uploads across
## them, readiness, a database restart, SIGTERM and kill -9 of one, both starting at once. Runs
## its own PostgreSQL server and nginx (CONSOLE_BINARY to use another binary); a few minutes.
cluster-test:
	timeout --signal=INT 600 python3 -m unittest discover -s Tests/cluster -p 'test_*.py' -v

## The README's pictures, from a fresh demo start (docs/screenshots)
screenshots: build-deps test-deps
	swift build --product payload-console
	python3 Tests/browser/readme_screenshots.py

build-deps:
	@scripts/ensure-apt-packages $(BUILD_PACKAGES)

test-deps:
	@scripts/ensure-apt-packages $(BROWSER_PACKAGES) $(ROBUSTNESS_PACKAGES) $(POSTGRES_PACKAGES) $(CLUSTER_PACKAGES) $(SIGNING_TEST_PACKAGES)
	@python3 -c 'import selenium, axe_selenium_python' 2>/dev/null || python3 -m pip install --quiet selenium axe-selenium-python \
		|| python3 -m pip install --quiet --break-system-packages selenium axe-selenium-python
	@python3 -c 'import requests, schemathesis' 2>/dev/null || python3 -m pip install --quiet requests schemathesis \
		|| python3 -m pip install --quiet --break-system-packages requests schemathesis
	@python3 -c 'import cryptography, hypercorn, h2' 2>/dev/null || python3 -m pip install --quiet cryptography hypercorn h2 \
		|| python3 -m pip install --quiet --break-system-packages cryptography hypercorn h2
