@testable import App
import Domain
import Foundation
import HTTPTypes
import HummingbirdTesting
import Storage
import Testing

/// The device list as helpdesk uses it: one box finds a device by any part of its names and
/// numbers, filters and sorts narrow a fleet, pages walk it, and ticked devices are
/// moved or asked for logs in one go — within each role's rights.
@Suite struct DeviceListTests {
    static let start = Date(timeIntervalSince1970: 1_800_000_000)

    /// Devices named by `names`, with serial numbers DMPQ0001… and owners "Owner N".
    static func seedDevices(_ console: TestConsole, _ names: [String], group: RecordID<DeviceGroupRecord>? = nil,
                            model: DeviceModel = .iPad, os: String = "18.1", supervised: Bool = true,
                            checkedInDaysAgo: Double? = nil, owner: String = "") throws -> [RecordID<DeviceRecord>] {
        try console.services.database.writeBlocking { connection in
            let existing = try connection.count(DeviceRecord.query())
            return try names.enumerated().map { offset, name in
                let number = existing + offset + 1
                return try connection.insert(DeviceRecord(
                    name: name, model: model, osVersion: os, serialNumber: String(format: "DMPQ%04d", number),
                    udid: String(format: "00008101-%016X", number), isSupervised: supervised, owner: owner.isEmpty ? "Owner \(number)" : owner,
                    groupID: group, installedApps: [], enrolledAt: start,
                    lastCheckInAt: checkedInDaysAgo.map { start.addingTimeInterval(-$0 * 86_400) })).id
            }
        }
    }

    static func group(_ console: TestConsole, _ name: String, parent: RecordID<DeviceGroupRecord>? = nil) throws -> RecordID<DeviceGroupRecord> {
        try console.services.database.writeBlocking { try $0.insert(DeviceGroupRecord(name: name, parentID: parent, createdAt: start)).id }
    }

    /// The names of the listed devices, in order.
    static func names(_ html: String) -> [String] {
        html.components(separatedBy: #"<th scope="row"><a href="/devices/"#).dropFirst().map { cell in
            String(cell.drop { $0 != ">" }.dropFirst().prefix { $0 != "<" })
        }
    }

    func signedIn(_ console: TestConsole, _ client: any TestClientProtocol, _ role: Role) async throws -> Browser {
        let email = "\(role.rawValue)@example.com"
        try await console.addUser(email, role: role)
        let browser = Browser(client)
        try await browser.signIn(email, password: TestConsole.password)
        return browser
    }

    @Test func oneBoxFindsADeviceByAnyPartOfItsNameSerialUDIDOrOwner() async throws {
        let console = try await TestConsole.make()
        _ = try Self.seedDevices(console, ["Ward 3 iPad", "Ward 12 iPad", "Lobby kiosk 03"])
        _ = try Self.seedDevices(console, ["Van 7"], owner: "Ines Ortega")
        try await console.test { client in
            let helpdesk = try await signedIn(console, client, .helpdesk)
            #expect(Self.names(try await helpdesk.get("/devices?q=ward").body) == ["Ward 12 iPad", "Ward 3 iPad"])
            // A browser's GET form sends the space as +.
            #expect(Self.names(try await helpdesk.get("/devices?q=Ward+3").body) == ["Ward 3 iPad"])
            #expect(Self.names(try await helpdesk.get("/devices?q=dmpq0003").body) == ["Lobby kiosk 03"], "serials in any case")
            #expect(Self.names(try await helpdesk.get("/devices?q=00008101-0000000000000002").body) == ["Ward 12 iPad"])
            #expect(Self.names(try await helpdesk.get("/devices?q=ines").body) == ["Van 7"])
            // Inside a field, not only at its start.
            #expect(Self.names(try await helpdesk.get("/devices?q=kiosk").body) == ["Lobby kiosk 03"])
            #expect(Self.names(try await helpdesk.get("/devices?q=iPad").body) == ["Ward 12 iPad", "Ward 3 iPad"])
            #expect(Self.names(try await helpdesk.get("/devices?q=0003").body) == ["Lobby kiosk 03"], "the middle of a serial number")
            #expect(Self.names(try await helpdesk.get("/devices?q=0000000000000004").body) == ["Van 7"], "the end of a UDID")
            #expect(Self.names(try await helpdesk.get("/devices?q=ortega").body) == ["Van 7"], "an owner's surname")
            // One or two characters are too short for the index: they match the start.
            #expect(Self.names(try await helpdesk.get("/devices?q=va").body) == ["Van 7"])
            #expect(Self.names(try await helpdesk.get("/devices?q=03").body).isEmpty)
            let none = try await helpdesk.get("/devices?q=%25%27%22%3Cscript%3E")
            #expect(none.status == .ok && Self.names(none.body).isEmpty && none.body.contains("&quot;&lt;script&gt;\"") && !none.body.contains("\"<script>"))
            for syntax in ["kiosk OR ward", "NEAR(kiosk)", "name:kiosk", "\"\"\"", "kiosk*", "^lob"] {
                let answer = try await helpdesk.get("/devices?q=" + (syntax.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? ""))
                #expect(answer.status == .ok && Self.names(answer.body).isEmpty, "\(syntax) is text, not FTS5 syntax")
            }
        }
    }

    @Test func aSearchWithOneMatchOffersToOpenItAndTheIndexFollowsRenamesAndRemovals() async throws {
        let console = try await TestConsole.make()
        let ids = try Self.seedDevices(console, ["Lobby kiosk 03", "Ward 3 iPad"])
        try await console.test { client in
            let helpdesk = try await signedIn(console, client, .helpdesk)
            let one = try await helpdesk.get("/devices?q=kiosk")
            #expect(one.body.contains("<a class=\"button primary\" href=\"/devices/\(ids[0])\" id=\"open-only-match\">Open Lobby kiosk 03</a>"))
            #expect(!(try await helpdesk.get("/devices?q=0000")).body.contains("open-only-match"), "two matches: the list")
            #expect(!(try await helpdesk.get("/devices")).body.contains("open-only-match"), "no search: the list")

            try await console.services.database.write { connection in
                var device = try connection.require(DeviceRecord.self, id: ids[0])
                device.name = "Front desk kiosk"
                try connection.update(device)
                try connection.delete(DeviceRecord.self, id: ids[1])
            }
            #expect(Self.names(try await helpdesk.get("/devices?q=lobby").body).isEmpty, "the old name is gone from the index")
            #expect(Self.names(try await helpdesk.get("/devices?q=desk").body) == ["Front desk kiosk"])
            #expect(Self.names(try await helpdesk.get("/devices?q=ward").body).isEmpty, "a removed device is gone from the index")
        }
    }

    @Test func filtersNarrowByGroupWithSubgroupsModelOSSupervisionAndCheckIn() async throws {
        let console = try await TestConsole.make()
        let clinics = try Self.group(console, "Clinics")
        let ward = try Self.group(console, "Ward 3", parent: clinics)
        let lobby = try Self.group(console, "Lobby")
        _ = try Self.seedDevices(console, ["Clinic desk"], group: clinics, os: "17.4", checkedInDaysAgo: 1)
        _ = try Self.seedDevices(console, ["Ward phone"], group: ward, model: .iPhone, os: "17.10", supervised: false, checkedInDaysAgo: 10)
        _ = try Self.seedDevices(console, ["Lobby kiosk"], group: lobby, os: "18.1")
        try await console.test { client in
            let viewer = try await signedIn(console, client, .viewer)
            #expect(Self.names(try await viewer.get("/devices?group=\(clinics)").body) == ["Clinic desk", "Ward phone"])
            #expect(Self.names(try await viewer.get("/devices?group=\(ward)").body) == ["Ward phone"])
            #expect(Self.names(try await viewer.get("/devices?model=iPhone").body) == ["Ward phone"])
            #expect(Self.names(try await viewer.get("/devices?os=17").body) == ["Clinic desk", "Ward phone"])
            #expect(Self.names(try await viewer.get("/devices?os=17.1").body).isEmpty, "17.1 is not 17.10")
            #expect(Self.names(try await viewer.get("/devices?supervised=no").body) == ["Ward phone"])
            #expect(Self.names(try await viewer.get("/devices?stale=7").body) == ["Lobby kiosk", "Ward phone"], "never checked in counts")
            let page = try await viewer.get("/devices?os=17&supervised=yes")
            #expect(page.body.contains("<option value=\"17\" selected>17.x</option>"))
            #expect(page.body.contains("<option value=\"17.10\">17.10</option>"))
            #expect(page.body.contains("1 device matches"))
            // Values the list does not offer are no filter rather than an error page.
            #expect(Self.names(try await viewer.get("/devices?model=Tamagotchi&stale=-3&group=abc").body).count == 3)
        }
    }

    @Test func lockStateAndConflictsComeFromTheSimulatorAndTheGroupsPolicy() async throws {
        let console = try await TestConsole.make()
        let kiosks = try Self.group(console, "Kiosks")
        let ids = try Self.seedDevices(console, ["Locked kiosk", "Free kiosk", "Hand-added"], group: kiosks)
        try await console.services.database.write { connection in
            for (index, id) in ids.prefix(2).enumerated() {
                var state = SimulatedDevice(isSupervised: true, apps: [], clock: Self.start)
                if index == 0 { state.lock = .singleAppMode(app: "com.example.kiosk") }
                _ = try connection.insert(SimulatorStateRecord(deviceID: id, state: state, appliedTag: "", installedProfiles: [:],
                                                               revision: 1, updatedAt: Self.start, lockMode: state.lock?.code))
            }
        }
        try await console.test { client in
            let viewer = try await signedIn(console, client, .viewer)
            #expect(Self.names(try await viewer.get("/devices?lock=singleAppMode").body) == ["Locked kiosk"])
            #expect(Self.names(try await viewer.get("/devices?lock=unlocked").body) == ["Free kiosk"], "a device that reports no lock is not 'unlocked'")
            let all = try await viewer.get("/devices")
            #expect(all.body.contains(">Single App Mode · com.example.kiosk</span>"))
            #expect(all.body.contains("Only simulated devices report their lock"))
            #expect(Self.names(try await viewer.get("/devices?conflict=yes").body).isEmpty)
        }
    }

    @Test func sortsTurnRoundAndPagesWalkEveryDeviceOnceInThatOrder() async throws {
        let console = try await TestConsole.make()
        for day in 0..<70 {
            _ = try Self.seedDevices(console, [String(format: "Tablet %02d", day)], checkedInDaysAgo: Double(day % 7) + Double(day) / 100)
        }
        try await console.test { client in
            let viewer = try await signedIn(console, client, .viewer)
            let first = try await viewer.get("/devices?sort=-name")
            #expect(Self.names(first.body).first == "Tablet 69")
            #expect(first.body.contains("aria-sort=\"descending\""))
            #expect(first.body.contains("href=\"/devices\">Name</a>"), "the sorted column turns round")
            var path: String? = "/devices?sort=-checkin"
            var seen: [String] = []
            while let next = path {
                let page = try await viewer.get(next)
                seen += Self.names(page.body)
                path = page.body.components(separatedBy: "href=\"").first { $0.contains("rel=\"next\"") && $0.hasPrefix("/devices?") }
                    .map { String($0.prefix { $0 != "\"" }).replacingOccurrences(of: "&amp;", with: "&") }
            }
            #expect(seen.count == 70 && Set(seen).count == 70)
            func daysAgo(_ day: Int) -> Double { Double(day % 7) + Double(day) / 100 }
            let order: [Int] = (0..<70).sorted { daysAgo($0) < daysAgo($1) }
            let expected = order.map { String(format: "Tablet %02d", $0) }
            #expect(seen == expected, "newest check-in first")
        }
    }

    @Test func tickedDevicesAreMovedOrAskedForLogsWithinEachRolesRights() async throws {
        let console = try await TestConsole.make()
        let target = try Self.group(console, "Field sales")
        let ids = try Self.seedDevices(console, ["Van 1", "Van 2", "Van 3"])
        try await console.test { client in
            let viewer = try await signedIn(console, client, .viewer)
            let viewerPage = try await viewer.get("/devices")
            #expect(!viewerPage.body.contains("name=\"device\""), "viewers get no tick boxes")
            #expect(try await viewer.post("/devices/bulk", pairs: [("device", "\(ids[0])"), ("action", "requestLogs")]).status == .forbidden)

            let helpdesk = try await signedIn(console, client, .helpdesk)
            let page = try await helpdesk.get("/devices")
            #expect(page.body.contains("form=\"device-selection\"") && !page.body.contains("id=\"bulk-move\""))
            let asked = try await helpdesk.post("/devices/bulk", pairs: [("device", "\(ids[0])"), ("device", "\(ids[1])"), ("action", "requestLogs"),
                                                                         ("captureMinutes", "15"), ("back", "/devices?q=van")])
            #expect(asked.status == .seeOther && asked.location == "/devices?q=van")
            let commands = try await console.services.database.read { try $0.fetch(DeviceCommandRecord.query().order(by: "deviceID")) }
            #expect(commands.map(\.deviceID) == [ids[0], ids[1]] && commands.allSatisfy { $0.parameters.captureMinutes == 15 })
            _ = try await helpdesk.get("/devices")
            #expect(try await helpdesk.post("/devices/bulk", pairs: [("device", "\(ids[0])"), ("action", "move"), ("groupID", "\(target)")]).status == .forbidden)
            _ = try await helpdesk.get("/devices")
            #expect(try await helpdesk.post("/devices/bulk", pairs: [("device", "\(ids[0])"), ("action", "command"), ("requestType", "RestartDevice")]).status == .forbidden)
            _ = try await helpdesk.get("/devices")
            #expect(try await helpdesk.post("/devices/bulk", pairs: [("device", "\(ids[0])"), ("action", "requestLogs"), ("captureMinutes", "0")]).status == .badRequest)

            let admin = try await signedIn(console, client, .admin)
            _ = try await admin.get("/devices")
            let moved = try await admin.post("/devices/bulk", pairs: [("device", "\(ids[1])"), ("device", "\(ids[2])"), ("action", "move"), ("groupID", "\(target)")])
            #expect(moved.status == .seeOther)
            let groups = try await console.services.database.read { try $0.fetch(DeviceRecord.query().order(by: "id")) }.map(\.groupID)
            #expect(groups == [nil, target, target])
            // All or nothing: a device that is gone stops the whole move.
            _ = try await admin.get("/devices")
            let partly = try await admin.post("/devices/bulk", pairs: [("device", "\(ids[0])"), ("device", "9999"), ("action", "move"), ("groupID", "none")])
            #expect(partly.status.code >= 400 && partly.status.code < 500)
            #expect(try await console.services.database.read { try $0.require(DeviceRecord.self, id: ids[0]) }.groupID == nil)
            let moveBack = try await console.services.database.read { try $0.require(DeviceRecord.self, id: ids[1]) }.groupID
            #expect(moveBack == target)
            _ = try await admin.get("/devices")
            let nothing = try await admin.post("/devices/bulk", pairs: [("action", "move"), ("groupID", "none")])
            #expect(nothing.status == .seeOther)
        }
    }
}

extension DeviceListTests {
    /// "Every device this filter finds": an admin's action on the whole fleet a filter shows,
    /// never on more devices than the list said, and never queuing for a real device that
    /// unenrolled (its command could only expire).
    @Test func everyDeviceAFilterFindsIsAnAdminsActionOnNoMoreThanTheListShowed() async throws {
        let console = try await TestConsole.make()
        let ids = try Self.seedDevices(console, ["Van 1", "Van 2", "Van 3", "Lobby kiosk"])
        try await console.services.database.write { connection in
            _ = try connection.insert(MDMDeviceRecord(deviceID: ids[2], udid: "00008030-00000003", state: .unenrolled, topic: "com.apple.mgmt.test",
                                                      enrolledAt: Date(timeIntervalSince1970: 1_790_000_000), notNowRun: []))
        }
        let commands: @Sendable () async throws -> [DeviceCommandRecord] = { try await console.services.database.read { try $0.fetch(DeviceCommandRecord.query().order(by: "deviceID")) } }
        @Sendable func everyVan(expected: String, filter: String = "q=van") -> [(String, String)] {
            [("scope", "filter"), ("filter", filter), ("expected", expected), ("action", "command"), ("requestType", "RestartDevice"), ("back", "/devices?q=van")]
        }
        try await console.test { client in
            let helpdesk = try await signedIn(console, client, .helpdesk)
            #expect(!(try await helpdesk.get("/devices?q=van")).body.contains("bulk-scope-filter"), "the helpdesk acts on ticked devices only")
            #expect(try await helpdesk.post("/devices/bulk", pairs: everyVan(expected: "3")).status == .forbidden)

            let admin = try await signedIn(console, client, .admin)
            let page = try await admin.get("/devices?q=van")
            #expect(page.body.contains("name=\"filter\" value=\"q=van\"") && page.body.contains("name=\"expected\" value=\"3\""))
            #expect(page.body.contains("Every device this filter finds: 3"))
            let sent = try await admin.post("/devices/bulk", pairs: everyVan(expected: "3"))
            #expect(sent.status == .seeOther && sent.location == "/devices?q=van")
            #expect(try await commands().map(\.deviceID) == [ids[0], ids[1]], "the unenrolled real device is left out")
            #expect(try await admin.get("/devices?q=van").body.contains("Restart: queued for 2 devices. 1 device left out: it has unenrolled from MDM."))

            // A van added since the list was read: the filter now finds more than the admin saw.
            _ = try Self.seedDevices(console, ["Van 4"])
            _ = try await admin.post("/devices/bulk", pairs: everyVan(expected: "3"))
            #expect(try await commands().count == 2)
            #expect(try await admin.get("/devices?q=van").body.contains("The filter finds 4 devices now, more than the 3 the list showed"))
            // What the page never writes is refused outright; a filter that now finds nothing is told so.
            for (filter, expected, status) in [("kind=robot", "3", 400), ("q=van", "many", 400), ("q=van&after=2", "3", 400), ("q=van&x=1", "3", 400),
                                               ("q=nothing-like-it", "3", 303)] {
                _ = try await admin.get("/devices")
                let refused = try await admin.post("/devices/bulk", pairs: everyVan(expected: expected, filter: filter))
                #expect(refused.status.code == status, "\(filter), \(expected)")
                #expect(try await commands().count == 2, "refused: \(filter), \(expected)")
            }
        }
    }
}

/// The device list for scripts: the same search and filters, read strictly.
@Suite struct DeviceListAPITests {
    @Test func scriptsFindDevicesWithTheListsFiltersAndGetTheirStatus() async throws {
        let console = try await TestConsole.make()
        let clinics = try DeviceListTests.group(console, "Clinics")
        let ward = try DeviceListTests.group(console, "Ward 3", parent: clinics)
        _ = try DeviceListTests.seedDevices(console, ["Ward 3 iPad", "Ward 30 iPad"], group: ward, checkedInDaysAgo: 2)
        _ = try DeviceListTests.seedDevices(console, ["Lobby kiosk"])
        let api = APITests()
        let viewer = try await api.token(console, role: .viewer)
        try await console.test { client in
            let inside = try await api.call(client, .get, "/api/v1/devices?q=kiosk", token: viewer)
            #expect((inside.json["devices"] as? [[String: Any]])?.map { $0["name"] as? String } == ["Lobby kiosk"], "the page's matching, inside names")
            let found = try await api.call(client, .get, "/api/v1/devices?q=ward+3&group=\(clinics)&limit=1", token: viewer)
            #expect(found.status == .ok && found.json["total"] as? Int == 2)
            let first = try #require((found.json["devices"] as? [[String: Any]])?.first)
            #expect(first["name"] as? String == "Ward 3 iPad" && first["lastCheckInAt"] is String && first["lock"] is NSNull)
            let next = try #require(found.json["next"] as? String)
            let second = try await api.call(client, .get, next, token: viewer)
            #expect((second.json["devices"] as? [[String: Any]])?.map { $0["name"] as? String } == ["Ward 30 iPad"] && second.json["next"] == nil)
            let stale = try await api.call(client, .get, "/api/v1/devices?stale=1&sort=-name", token: viewer)
            #expect((stale.json["devices"] as? [[String: Any]])?.map { $0["name"] as? String } == ["Ward 30 iPad", "Ward 3 iPad", "Lobby kiosk"])
            for bad in ["model=Tamagotchi", "stale=0", "sort=age", "supervised=maybe", "group=abc", "conflict=no", "q=%01", "os="] {
                let refused = try await api.call(client, .get, "/api/v1/devices?\(bad)", token: viewer)
                #expect(refused.status == .badRequest && api.errorCode(refused.json) == "invalid_query", "\(bad)")
                #expect((refused.json["error"] as? [String: Any])?["field"] as? String == String(bad.prefix { $0 != "=" }))
            }
        }
    }
}
