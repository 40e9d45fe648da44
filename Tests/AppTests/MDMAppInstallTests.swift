@testable import App
import Domain
import Foundation
import HTTPTypes
import Storage
import Testing

/// Apps reach real devices: the catalog says how (App Store, in-house, take over), an app the
/// policy needs is installed with InstallApplication before Single App Mode locks into it, and
/// the device's own InstalledApplicationList decides what became of it — installing, installed,
/// a failed download, removed by its user — with refusals tried again after a pause and an app
/// the policy no longer needs left on the device.
@Suite struct MDMAppInstallTests {
    typealias Managed = MDMPolicySyncTests.Managed
    static let lobby = "com.example.lobby"
    static let slot = DeviceAppInstalls.identifier(of: lobby)

    /// A supervised enrolled device whose group locks into the lobby app, which the catalog
    /// installs from the App Store (removed with management).
    func kiosk(delivery: AppDeliveryMethod? = .appStore) async throws -> Managed {
        let managed = try await MDMPolicySyncTests().managed()
        try await managed.services.database.write { connection in
            _ = try connection.execute("UPDATE devices SET isSupervised = 1 WHERE id = \(managed.device.device)")
            var app = AppRecord(name: "Lobby Check-In", bundleID: Self.lobby, isManaged: true, isSDKBuilt: false, hasAssessmentEntitlement: false,
                                iconColor: "", createdAt: managed.console.clock.now)
            app.apply(CatalogAppDraft(name: "Lobby Check-In", bundleID: Self.lobby, deliveryMethod: delivery,
                                      storeID: delivery == .appStore ? "1234567890" : "", removeWithManagement: delivery != nil))
            _ = try connection.insert(app)
        }
        try await managed.assign(try await managed.profile("Lobby kiosk", [Payload(SingleAppMode(appIdentifier: Self.lobby))]))
        return managed
    }

    /// The device's list holding the lobby app, with `extra` keys on its entry.
    static func apps(_ extra: [(String, PropertyList)] = []) -> [(String, PropertyList)] {
        [("InstalledApplicationList", .array([.dictionary([("Identifier", .string(lobby)), ("Name", .string("Lobby"))] + extra)]))]
    }

    func installedApps(_ managed: Managed) throws -> [String] {
        try managed.device.fixture.read { try $0.require(DeviceRecord.self, id: managed.device.device) }.installedApps
    }

    @Test func theLockWaitsForItsAppWhichTheConsoleInstallsFirst() async throws {
        let managed = try await kiosk()
        let first = try await managed.sync.run()
        #expect(first.appInstalls == 1 && first.installs == 0, "the app first; the lock waits")
        #expect(try managed.held(DevicePolicyProfiles.singleAppModeIdentifier)?.heldBack?.contains("the console installs it first") == true)

        let install = try await managed.device.idle()
        #expect(MDMCommandExchangeTests.requestType(install) == "InstallApplication")
        #expect(install?["Command"]?["iTunesStoreID"] == .integer(1_234_567_890))
        #expect(install?["Command"]?["ManagementFlags"] == .integer(1), "removed with management, as the catalog says")
        let list = try await managed.device.report("Acknowledged", install, [("Identifier", .string(Self.lobby)), ("State", .string("Installing"))])
        #expect(MDMCommandExchangeTests.requestType(list) == "InstalledApplicationList", "asked at once what became of it")

        // Still downloading: not installed, so nothing locks into it yet.
        _ = try await managed.device.report("Acknowledged", list, Self.apps([("Installing", .boolean(true))]))
        #expect(try installedApps(managed).isEmpty)
        #expect(try await managed.sync.run().installs == 0)
        #expect(try await managed.page("/devices/\(managed.device.device)", role: .helpdesk).contains("Accepted; installing"))
        // Held back (the lock) and under way (the app) alike; with the lock let through, the app alone still counts.
        try await managed.services.database.write { _ = try $0.execute("UPDATE mdm_device_profiles SET heldBack = NULL") }
        let outOfStep = try managed.device.fixture.read { try $0.rows(MDMPolicyDrift.outOfStepDevices).count }
        #expect(outOfStep == 1, "the dashboard counts a device whose app is still installing, as its page says")

        // A minute on, the console asks again; now it is there, and the lock follows.
        managed.console.clock.advance(by: 61)
        let asked = try await managed.services.database.write { connection in
            try MDMAppInstalls.followUp(try MDMAppInstalls.underWay(connection: connection), at: managed.console.clock.now, every: 60, connection: connection)
        }
        #expect(asked == [managed.device.device])
        _ = try await managed.answerNext("Acknowledged", Self.apps([("ShortVersion", .string("2.4.0"))]))
        #expect(try installedApps(managed) == [Self.lobby])
        #expect(try managed.held(Self.slot)?.listedAt != nil)
        #expect(try await managed.sync.run().installs == 1)
        let lock = try MDMPolicySyncTests.installed(try await managed.device.idle())
        #expect(lock["PayloadIdentifier"] == .string(DevicePolicyProfiles.singleAppModeIdentifier))
        let page = try await managed.page()
        #expect(page.contains("App com.example.lobby") && page.contains("Installed"))
    }

    /// Installed and listed, as the first test leaves it.
    func installedAndListed() async throws -> Managed {
        let managed = try await kiosk()
        try await managed.sync.run()
        let install = try await managed.device.idle()
        let list = try await managed.device.report("Acknowledged", install)
        _ = try await managed.device.report("Acknowledged", list, Self.apps())
        return managed
    }

    @Test func anAppItsUserRemovedIsInstalledAgain() async throws {
        let managed = try await installedAndListed()
        try await managed.services.database.write { connection in
            _ = try connection.insert(DeviceCommandRecord(deviceID: managed.device.device, command: DeviceCommand(requestType: .installedApplicationList),
                                                          queuedAt: managed.console.clock.now, queuedBy: "Inventory"))
        }
        // The lock's install comes first in the queue; then the daily list, without the app.
        try await managed.sync.run()
        var command = try await managed.device.idle()
        while let type = MDMCommandExchangeTests.requestType(command), type != "InstalledApplicationList" {
            command = try await managed.device.report("Acknowledged", command)
        }
        _ = try await managed.device.report("Acknowledged", command, [("InstalledApplicationList", .array([]))])
        let row = try #require(try managed.held(Self.slot))
        #expect(row.installedDigest == nil && row.lastError?.contains("Removed from the device") == true)
        #expect(try await managed.sync.run().appInstalls == 1, "installed again")
    }

    @Test func aFailedDownloadIsRefusedAndTriedAgainOnlyAfterAPause() async throws {
        let managed = try await kiosk()
        try await managed.sync.run()
        let install = try await managed.device.idle()
        let list = try await managed.device.report("Acknowledged", install)
        _ = try await managed.device.report("Acknowledged", list, Self.apps([("DownloadFailed", .boolean(true))]))
        let row = try #require(try managed.held(Self.slot))
        #expect(row.failures == 1 && row.failedDigest != nil && row.lastError?.contains("could not download") == true)
        #expect(try installedApps(managed).isEmpty)
        #expect(try await managed.sync.run().appInstalls == 0, "within the pause: not again")
        let page = try await managed.page()
        #expect(page.contains("Refused by the device") && page.contains("could not download"))
        managed.console.clock.advance(by: 61)
        try await managed.services.database.write { try MDMPolicyReports.markDue(try MDMPolicyReports.readyToRetry(at: managed.console.clock.now, connection: $0), connection: $0) }
        #expect(try await managed.sync.run().appInstalls == 1)
    }

    @Test func anInstallNeverListedWithinADayCountsAsRefused() async throws {
        let managed = try await kiosk()
        try await managed.sync.run()
        let install = try await managed.device.idle()
        let list = try await managed.device.report("Acknowledged", install)
        _ = try await managed.device.report("Acknowledged", list, [("InstalledApplicationList", .array([]))])
        #expect(try managed.held(Self.slot)?.installedDigest != nil, "accepted, not there yet: under way, not removed")
        managed.console.clock.advance(by: 86_401)
        _ = try await managed.services.database.write { connection in
            try MDMAppInstalls.followUp(try MDMAppInstalls.underWay(connection: connection), at: managed.console.clock.now, every: 60, connection: connection)
        }
        let row = try #require(try managed.held(Self.slot))
        #expect(row.installedDigest == nil && row.failures == 1 && row.lastError?.contains("within a day") == true)
    }

    @Test func anAppTheCatalogCannotDeliverHoldsTheLockBackSayingWhy() async throws {
        let managed = try await kiosk(delivery: nil)
        let summary = try await managed.sync.run()
        #expect(summary.appInstalls == 0 && summary.installs == 0)
        #expect(try managed.held(Self.slot)?.heldBack?.contains("does not say how devices get it") == true)
        #expect(try managed.held(DevicePolicyProfiles.singleAppModeIdentifier)?.heldBack?.contains("someone must install it") == true)

        // Saying how, in the catalog, is a policy change: the device gets the app.
        try await managed.services.database.write { connection in
            _ = try connection.execute("UPDATE apps SET deliveryMethod = 'takeOver' WHERE bundleID = \(Self.lobby)")
        }
        #expect(try await managed.sync.run().appInstalls == 1)
        let install = try await managed.device.idle()
        #expect(install?["Command"]?["Identifier"] == .string(Self.lobby) && install?["Command"]?["ChangeManagementState"] == .string("Managed"))
    }

    /// Waiting unsent, or put off by the device (which would take it at its next check-in).
    @Test(arguments: [false, true])
    func anAppThePolicyNoLongerNeedsStaysAndAnUnsentInstallIsTakenBack(putOff: Bool) async throws {
        let managed = try await kiosk()
        try await managed.sync.run()
        if putOff { _ = try await managed.answerNext("NotNow") }
        let queued = try #require(try managed.device.commands().first { $0.requestType == .installApplication })
        #expect(queued.status == (putOff ? .notNow : .queued))
        let assignment = try managed.device.fixture.read { try $0.fetch(ProfileAssignmentRecord.query()) }
        for each in assignment { _ = try await managed.services.assignments.unassign(each.profileID, from: each.groupID, by: .system) }
        try await managed.sync.run()
        let after = try #require(try managed.device.commands().first { $0.uuid == queued.uuid })
        #expect(after.status == .cancelled)
        #expect(try managed.device.commands().allSatisfy { $0.requestType != .installApplication || $0.status == .cancelled })
        #expect(try managed.held(Self.slot)?.sendingDigest == nil)
    }

    @Test func aProfileRequiresAppsWhichEveryDeviceItReachesGets() async throws {
        let managed = try await kiosk()
        try await managed.services.database.write { connection in
            for (name, bundle) in [("Orders", "com.example.orders"), ("Notes", "com.example.notes")] {
                var app = AppRecord(name: name, bundleID: bundle, isManaged: true, isSDKBuilt: false, hasAssessmentEntitlement: false,
                                    iconColor: "", createdAt: managed.console.clock.now)
                app.apply(CatalogAppDraft(name: name, bundleID: bundle, deliveryMethod: bundle == "com.example.orders" ? .inHouse : nil,
                                          manifestURL: bundle == "com.example.orders" ? "https://apps.example.com/orders.plist" : ""))
                _ = try connection.insert(app)
            }
            // Someone installed Notes by hand: nothing to hold back for it.
            var device = try connection.require(DeviceRecord.self, id: managed.device.device)
            device.installedApps = ["com.example.notes"]
            try connection.update(device)
        }
        try await managed.assign(try await managed.profile("Field kit", [Payload(RequiredApps(appIdentifiers: ["com.example.orders", "com.example.notes", Self.lobby]))]))
        #expect(try await managed.sync.run().appInstalls == 2, "the lobby app once, though both profiles need it; and Orders")
        let installs = try managed.device.commands().filter { $0.requestType == .installApplication }
        #expect(Set(installs.flatMap(\.parameters.apps)) == [Self.lobby, "com.example.orders"])
        #expect(try managed.held(DeviceAppInstalls.identifier(of: "com.example.notes")) == nil)
        // The device takes each command in turn; the in-house app comes from its manifest.
        var sent: [PropertyList] = []
        var command = try await managed.device.idle()
        while let next = command, sent.count < 10 {
            if MDMCommandExchangeTests.requestType(next) == "InstallApplication" { sent.append(next["Command"] ?? .dictionary([])) }
            command = try await managed.device.report("Acknowledged", next)
        }
        #expect(sent.count == 2 && sent.contains { $0["ManifestURL"] == .string("https://apps.example.com/orders.plist") })
    }

    @Test func theImpactPreviewListsTheAppsAndConfigurationsAChangeSends() async throws {
        let managed = try await MDMPolicySyncTests().managed()
        try await managed.services.database.write { connection in
            var app = AppRecord(name: "Orders", bundleID: "com.example.orders", isManaged: true, isSDKBuilt: false, hasAssessmentEntitlement: false,
                                iconColor: "", createdAt: managed.console.clock.now)
            app.apply(CatalogAppDraft(name: "Orders", bundleID: "com.example.orders", deliveryMethod: .takeOver))
            _ = try connection.insert(app)
            var device = try connection.require(DeviceRecord.self, id: managed.device.device)
            device.installedApps = ["com.example.kiosk"]
            try connection.update(device)
        }
        let configuration = ManagedAppConfiguration(appIdentifier: "com.example.kiosk", keys: [
            ConfigKey(name: "serverURL", type: .string, required: true, value: .string("https://kiosk.example.com"))])
        // Notes has no delivery in the catalog: nothing is sent for it, so the preview lists nothing.
        let profile = try await managed.profile("Field kit", [Payload(RequiredApps(appIdentifiers: ["com.example.orders", "com.example.notes"])),
                                                              Payload(configuration)])
        let preview = try await managed.services.profiles.impact(of: .assign(profile, to: managed.device.fixture.group))
        #expect(preview.impact.mdmCommands == [PolicyImpact.MDMCommands(requestType: .installApplication, profile: "com.example.orders", devices: 1),
                                               PolicyImpact.MDMCommands(requestType: .settings, profile: "com.example.kiosk", devices: 1)])
        #expect(ImpactView(preview.impact, appNames: [:]).mdmLines.first == "Install app “com.example.orders” queued for 1 device")

        // What the preview said is what the assignment queues.
        try await managed.assign(profile)
        let summary = try await managed.sync.run()
        #expect(summary.appInstalls == 1 && summary.configurations == 1 && summary.installs == 0)
    }

    @Test func theFormAndTheAPISayHowDevicesGetAnApp() async throws {
        let console = try await TestConsole.make()
        try await console.addUser("ann@example.com", role: .admin)
        let admin = try await APITests().token(console, role: .admin)
        try await console.test { client in
            let browser = Browser(client)
            try await browser.signIn("ann@example.com", password: TestConsole.password)
            try await browser.get("/apps")
            // An in-house app over plain http is refused beside the address, the values kept.
            let refused = try await browser.post("/apps", ["name": "Rounds", "bundleID": "com.example.rounds", "isManaged": "on",
                                                           "deliveryMethod": "inHouse", "manifestURL": "http://apps.example.com/rounds.plist"])
            #expect(refused.status == .unprocessableContent)
            #expect(refused.body.contains(#"id="app-manifest-url-error""#) && refused.body.contains("HTTPS only"))
            #expect(refused.body.contains(#"<option value="inHouse" selected>"#) && refused.body.contains("http://apps.example.com/rounds.plist"))
            try await browser.post("/apps", ["name": "Rounds", "bundleID": "com.example.rounds", "isManaged": "on", "deliveryMethod": "inHouse",
                                             "manifestURL": "https://apps.example.com/rounds.plist", "preventBackup": "on"])

            let store = try await APITests().call(client, .post, "/api/v1/apps", token: admin,
                                                  body: #"{"name": "Maps", "bundleID": "com.example.maps", "deliveryMethod": "appStore", "storeID": 915056765}"#)
            #expect(store.status == .created && store.json["storeID"] as? Int == 915_056_765 && store.json["deliveryMethod"] as? String == "appStore")
            let noID = try await APITests().call(client, .post, "/api/v1/apps", token: admin,
                                                 body: #"{"name": "Notes", "bundleID": "com.example.notes", "deliveryMethod": "appStore"}"#)
            #expect(noID.status == .unprocessableContent && (noID.json["error"] as? [String: Any])?["field"] as? String == "storeID")
            let unmanaged = try await APITests().call(client, .post, "/api/v1/apps", token: admin,
                                                      body: #"{"name": "Web", "bundleID": "com.example.web", "isManaged": false, "deliveryMethod": "takeOver"}"#)
            #expect(unmanaged.status == .unprocessableContent && (unmanaged.json["error"] as? [String: Any])?["field"] as? String == "deliveryMethod")
            let unknown = try await APITests().call(client, .post, "/api/v1/apps", token: admin,
                                                    body: #"{"name": "Side", "bundleID": "com.example.side", "deliveryMethod": "sideload"}"#)
            let refusal = unknown.json["error"] as? [String: Any]
            #expect(unknown.status == .unprocessableContent && refusal?["field"] as? String == "deliveryMethod")
            #expect((refusal?["message"] as? String)?.contains("cannot be “sideload”") == true, "worded for people, not Swift")
        }
        let apps = try console.services.database.readBlocking { try $0.fetch(AppRecord.query().order(by: "id")) }
        #expect(apps.map(\.bundleID) == ["com.example.rounds", "com.example.maps"])
        #expect(apps[0].delivery == AppDelivery(method: .inHouse, manifestURL: "https://apps.example.com/rounds.plist", preventBackup: true))
    }
}
