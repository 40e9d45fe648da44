import Domain
import Foundation
import Testing

@Suite struct PayloadValidationTests {
    @Test func bundleIDsMustBeReverseDNS() {
        #expect(BundleID.problem("com.example.app") == nil)
        #expect(BundleID.problem("com.example.my-app2") == nil)
        #expect(BundleID.problem("app") != nil)
        #expect(BundleID.problem("com..app") != nil)
        #expect(BundleID.problem("com.example.app ") != nil)
        #expect(BundleID.problem("com.exämple.app") != nil)
        #expect(BundleID.problem("") != nil)
    }

    @Test func singleAppModeNeedsAValidApp() {
        #expect(SingleAppMode(appIdentifier: "com.example.kiosk").validate().isEmpty)
        #expect(SingleAppMode(appIdentifier: "kiosk").validate()["app"] != nil)
    }

    @Test func theASAMListNamesTheBadAndDuplicateEntries() {
        let errors = ASAMAllowlist(appIdentifiers: ["com.a.exam", "bad id", "com.a.exam"]).validate()
        #expect(errors["apps.1"] != nil)
        #expect(errors["apps.2"] == "com.a.exam is already in the list.")
        #expect(ASAMAllowlist(appIdentifiers: []).validate()["apps"] != nil)
    }

    @Test func geofenceRangesAreCheckedPerArea() {
        let fence = Geofence(areas: [
            .init(name: "", latitude: 91, longitude: -181, radiusMeters: 49),
            .init(name: "Depot", latitude: 0, longitude: 0, radiusMeters: 50_001),
            .init(name: "depot", latitude: 0, longitude: 0, radiusMeters: 50),
        ])
        let errors = fence.validate()
        #expect(errors["areas.0.name"] != nil)
        #expect(errors["areas.0.latitude"] != nil)
        #expect(errors["areas.0.longitude"] != nil)
        #expect(errors["areas.0.radius"] != nil)
        #expect(errors["areas.1.radius"] != nil)
        #expect(errors["areas.2.name"] != nil)
        #expect(errors["areas.2.radius"] == nil)
    }

    @Test func aPointOnTheBoundaryIsInside() {
        let centre = GeoPoint(latitude: 0, longitude: 0)
        let east = GeoPoint(latitude: 0, longitude: 0.01)
        let radius = GeoPoint.distanceMeters(from: centre, to: east)
        let fence = Geofence(areas: [.init(name: "Exact", latitude: 0, longitude: 0, radiusMeters: radius)])
        #expect(fence.test(east).isInside)
        let beyond = Geofence(areas: [.init(name: "Short", latitude: 0, longitude: 0, radiusMeters: radius - 0.5)])
        #expect(!beyond.test(east).isInside)
    }

    @Test func areasWorkAcrossTheAntimeridian() {
        let fence = Geofence(areas: [.init(name: "Fiji", latitude: -17, longitude: 179.99, radiusMeters: 5_000)])
        let result = fence.test(GeoPoint(latitude: -17, longitude: -179.99))
        #expect(result.isInside)
        #expect(result.distanceToNearestEdgeMeters < 0)
    }

    @Test func aLevelKeepsItselfAndEveryMoreSevereLevel() {
        #expect(LogLevel.warning.includes(.error))
        #expect(LogLevel.warning.includes(.warning))
        #expect(!LogLevel.warning.includes(.information))
        #expect(!LogLevel.error.includes(.warning))
        #expect(LogLevel.debug.includes(.information))
    }

    @Test func offlineMinutesAreBoundedOnlyWhenOfflineAccessIsOn() {
        #expect(Authentication(offlineAccessEnabled: true, maximumOfflineMinutes: 0).validate()["maximumOffline"] != nil)
        #expect(Authentication(offlineAccessEnabled: true, maximumOfflineMinutes: 43_201).validate()["maximumOffline"] != nil)
        #expect(Authentication(offlineAccessEnabled: false, maximumOfflineMinutes: 0).validate().isEmpty)
    }

    @Test func brandingColoursAndImagesAreChecked() {
        let bad = Branding(primaryColor: RGBAColor(red: 256, green: -1, blue: 0),
                           appLogo1x: ImageReference(id: "a", mediaType: "image/gif", width: 1, height: 1, byteCount: 10),
                           splashLogo2x: ImageReference(id: "b", mediaType: "image/png", width: 1, height: 1, byteCount: 2_000_000))
        let errors = bad.validate()
        #expect(errors["color.red"] != nil)
        #expect(errors["color.green"] != nil)
        #expect(errors["appLogo1x"] != nil)
        #expect(errors["splashLogo2x"] != nil)
        #expect(RGBAColor(red: 238, green: 139, blue: 48).hex == "#ee8b30")
        #expect(RGBAColor(hex: "#ee8b30") == RGBAColor(red: 238, green: 139, blue: 48))
    }

    @Test func imagesAreRecognisedByTheirBytes() {
        let png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52, 0, 0, 1, 0, 0, 0, 0, 128]
        #expect(ImageInspector.inspect(png)?.mediaType == "image/png")
        #expect(ImageInspector.inspect(png)?.width == 256)
        // SOI, an APP0 segment, then SOF0 with height 480 and width 640.
        let jpeg: [UInt8] = [0xFF, 0xD8, 0xFF, 0xE0, 0x00, 0x04, 0x00, 0x00, 0xFF, 0xC0, 0x00, 0x11, 0x08, 0x01, 0xE0, 0x02, 0x80, 0x03]
        let inspected = ImageInspector.inspect(jpeg)
        #expect(inspected?.mediaType == "image/jpeg")
        #expect(inspected?.width == 640)
        #expect(inspected?.height == 480)
        #expect(ImageInspector.inspect(Array("GIF89a".utf8)) == nil)
        #expect(ImageInspector.inspect([0xFF, 0xD8]) == nil)
    }

    @Test func configurationValuesMeetTheirConstraints() {
        func problem(_ key: ConfigKey) -> String? {
            ManagedAppConfiguration(appIdentifier: "com.example.app", keys: [key]).validate()["keys.0.value"]
        }
        #expect(problem(ConfigKey(name: "n", type: .integer, minimum: 1, maximum: 10, value: .integer(11))) != nil)
        #expect(problem(ConfigKey(name: "n", type: .integer, minimum: 1, maximum: 10, value: .integer(10))) == nil)
        #expect(problem(ConfigKey(name: "s", type: .string, pattern: "[a-z]+", value: .string("abc1"))) != nil)
        #expect(problem(ConfigKey(name: "s", type: .string, allowedValues: ["red", "blue"], value: .string("green"))) != nil)
        #expect(problem(ConfigKey(name: "r", type: .boolean, required: true)) != nil)
        #expect(problem(ConfigKey(name: "t", type: .integer, value: .string("1"))) != nil)
        #expect(problem(ConfigKey(name: "a", type: .stringArray, maximum: 1, value: .stringArray(["a", "b"]))) != nil)
        #expect(ConfigValue.parse("2026-01-31", as: .date).map(\.type) == .success(.date))
        #expect((try? ConfigValue.parse("maybe", as: .boolean).get()) == nil)
    }
}

@Suite struct ExportTests {
    func allOptions() -> SingleAppMode {
        var lock = SingleAppMode(appIdentifier: "com.example.kiosk")
        for field in SingleAppMode.optionFields { lock.options[keyPath: field.keyPath] = true }
        for field in SingleAppMode.userEnabledOptionFields { lock.userEnabledOptions[keyPath: field.keyPath] = true }
        return lock
    }

    func input(_ payloads: [Payload]) -> ProfileExportInput {
        ProfileExportInput(identifier: "com.example.p", uuid: "11111111-2222-3333-4444-555555555555", displayName: "P & <Q>",
                           description: "d", organization: "o",
                           payloads: payloads.enumerated().map { ExportedPayload(payload: $1, uuid: "UUID-\($0)") })
    }

    @Test func everySingleAppModeOptionRoundTripsAsABooleanInsideApp() throws {
        let xml = MobileConfig.xml(for: input([Payload(allOptions())]))
        let plist = try #require(try PropertyListSerialization.propertyList(from: Data(xml.utf8), format: nil) as? [String: Any])
        #expect(plist["PayloadVersion"] as? Int == 1)
        #expect(plist["PayloadDisplayName"] as? String == "P & <Q>")
        let lock = try #require((plist["PayloadContent"] as? [[String: Any]])?.first)
        #expect(lock["PayloadIdentifier"] as? String == "com.example.p.app-lock")
        #expect(lock["PayloadUUID"] as? String == "UUID-0")
        let app = try #require(lock["App"] as? [String: Any])
        let options = try #require(app["Options"] as? [String: Any])
        let user = try #require(app["UserEnabledOptions"] as? [String: Any])
        #expect(options.count == SingleAppMode.optionFields.count)
        for field in SingleAppMode.optionFields { #expect(options[field.appleKey] as? Bool == true, "\(field.appleKey)") }
        for field in SingleAppMode.userEnabledOptionFields { #expect(user[field.appleKey] as? Bool == true, "\(field.appleKey)") }
        #expect(xml.contains("<key>DisableTouch</key>\n\t\t\t\t\t<true/>"))
    }

    @Test func theXMLIsApplesFormatWithEscapedText() {
        let xml = PropertyList.dictionary([("A&B", .string("<x>")), ("n", .integer(3)), ("r", .real(2)), ("f", .boolean(false))]).xmlDocument()
        #expect(xml == """
            <?xml version="1.0" encoding="UTF-8"?>
            <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
            <plist version="1.0">
            <dict>
            \t<key>A&amp;B</key>
            \t<string>&lt;x&gt;</string>
            \t<key>n</key>
            \t<integer>3</integer>
            \t<key>r</key>
            \t<real>2.0</real>
            \t<key>f</key>
            \t<false/>
            </dict>
            </plist>

            """)
    }

    @Test func sdkPayloadsShareOneVendorDictionaryAndTheSDKProfile() throws {
        let payloads: [Payload] = [
            Payload(ASAMAllowlist(appIdentifiers: ["com.a.exam"])),
            Payload(DataLossPrevention(allowCopyPasteOut: false)),
            Payload(Logging(level: .information, wifiOnly: true)),
            Payload(Geofence(areas: [.init(name: "HQ", latitude: 51.5, longitude: -0.12, radiusMeters: 200)])),
            Payload(Authentication(type: .usernamePassword, offlineAccessEnabled: true, maximumOfflineMinutes: 60)),
        ]
        let plist = MobileConfig.propertyList(for: input(payloads))
        guard case .array(let content)? = plist["PayloadContent"] else { Issue.record("no content"); return }
        #expect(content.count == 2)
        #expect(content[0]["autonomousSingleAppModePermittedAppIDs"] == .array([.string("com.a.exam")]))
        #expect(content[1]["PayloadType"] == .string("com.payloadconsole.sdk"))
        #expect(content[1]["DataLossPrevention"]?["CopyPasteOut"] == .boolean(false))
        #expect(content[1]["Logging"]?["Level"] == .string("Information"))
        #expect(content[1]["Authentication"]?["OfflineAccess"]?["MaximumOfflineMinutes"] == .integer(60))

        let json = try #require(try JSONSerialization.jsonObject(with: SDKProfile.json(for: input(payloads))) as? [String: Any])
        #expect(json["ProfileIdentifier"] as? String == "com.example.p")
        #expect(((json["Geofence"] as? [String: Any])?["Areas"] as? [[String: Any]])?.first?["Radius"] as? Double == 200)
        #expect(json["DataLossPrevention"] != nil)
    }

    @Test func payloadsRoundTripThroughTheAPIJSON() throws {
        let payloads: [Payload] = [Payload(allOptions()), Payload(DataLossPrevention(allowComposeEmail: false)),
                                   Payload(Branding(primaryColor: RGBAColor(red: 1, green: 2, blue: 3)))]
        for payload in payloads {
            #expect(try PayloadJSON.decode(PayloadJSON.encode(payload)) == payload)
        }
        #expect(throws: PayloadJSON.DecodingProblem.self) { try PayloadJSON.decode(Data(#"{"PayloadType": "com.apple.other"}"#.utf8)) }
    }
}

/// The simulator's "outside every area" preset: a point the fence really refuses.
@Suite struct GeofenceOutsidePointTests {
    @Test func thePointIsOutsideEveryAreaEvenWhenNeighboursOverlapTheFirstTry() throws {
        let office = Geofence.Area(name: "Office", latitude: 51.5, longitude: -0.12, radiusMeters: 400)
        // A second area exactly where the first try (2 km past the office's edge) would land.
        let tryPoint = GeoPoint(latitude: 51.5 + 2_400 / 111_320, longitude: -0.12)
        let yard = Geofence.Area(name: "Yard", latitude: tryPoint.latitude, longitude: tryPoint.longitude, radiusMeters: 3_000)
        for fence in [Geofence(areas: [office]), Geofence(areas: [office, yard])] {
            let point = try #require(fence.pointOutside())
            #expect(!fence.test(point).isInside)
        }
        #expect(Geofence(areas: []).pointOutside() == nil)
    }

    @Test func nearThePoleItLooksElsewhere() throws {
        let pole = Geofence.Area(name: "Station", latitude: 89.99, longitude: 0, radiusMeters: 50_000)
        let fence = Geofence(areas: [pole])
        if let point = fence.pointOutside() { #expect(!fence.test(point).isInside && point.latitude <= 90) }
    }
}
