@testable import App
import Domain
import Foundation
import HTTPTypes
import Storage
import Testing

@Suite struct AppCatalogTests {
    @Test func anAdminAddsAnAppAndEveryRoleSeesIt() async throws {
        let console = try await TestConsole.make()
        try await console.addUser("ann@example.com", role: .admin)
        try await console.addUser("val@example.com", role: .viewer)
        try await console.test { client in
            let admin = Browser(client)
            try await admin.signIn("ann@example.com", password: TestConsole.password)
            try await admin.get("/apps")
            let added = try await admin.post("/apps", ["name": "Exam Browser", "bundleID": " com.example.exam ", "isManaged": "on",
                                                       "hasAssessmentEntitlement": "on", "iconColor": "#224488"])
            #expect(added.status == .seeOther)

            let viewer = Browser(client)
            try await viewer.signIn("val@example.com", password: TestConsole.password)
            let list = try await viewer.get("/apps")
            #expect(list.body.contains("<code>com.example.exam</code>"))
            #expect(list.body.contains("Assessment entitlement"))
            #expect(!list.body.contains("Add an app"))
        }
        let app = try console.services.database.readBlocking { try $0.fetchOne(AppRecord.query()) }
        #expect(app?.bundleID == "com.example.exam")
        #expect(app?.hasAssessmentEntitlement == true)
        #expect(app?.isSDKBuilt == false)
    }

    @Test func anInvalidOrDuplicateBundleIDReRendersTheFormWithTheValues() async throws {
        let console = try await TestConsole.make()
        try await console.addUser("ann@example.com", role: .admin)
        try await console.test { client in
            let admin = Browser(client)
            try await admin.signIn("ann@example.com", password: TestConsole.password)
            try await admin.get("/apps")
            let invalid = try await admin.post("/apps", ["name": "Kiosk", "bundleID": "kiosk app", "isSDKBuilt": "on", "iconColor": "#112233"])
            #expect(invalid.status == .unprocessableContent)
            #expect(invalid.body.contains(#"id="app-bundle-id-error""#))
            #expect(invalid.body.contains(#"value="kiosk app""#))
            #expect(invalid.body.contains(#"name="isSDKBuilt" value="on" checked"#))

            try await admin.post("/apps", ["name": "Kiosk", "bundleID": "com.example.kiosk", "iconColor": "#112233"])
            try await admin.get("/apps")
            let duplicate = try await admin.post("/apps", ["name": "Kiosk 2", "bundleID": "com.example.kiosk", "iconColor": "#112233"])
            #expect(duplicate.status == .unprocessableContent)
            #expect(duplicate.body.contains("com.example.kiosk is already in the catalog."))
        }
        #expect(try console.services.database.readBlocking { try $0.count(AppRecord.query()) } == 1)
    }
}

@Suite struct GroupAndDeviceTests {
    @Test func groupsNestAndCannotBeMovedInsideThemselves() async throws {
        let console = try await TestConsole.make()
        try await console.addUser("ann@example.com", role: .admin)
        try await console.test { client in
            let admin = Browser(client)
            try await admin.signIn("ann@example.com", password: TestConsole.password)
            try await admin.get("/groups")
            try await admin.post("/groups", ["name": "Clinics", "parentID": ""])
            let clinics = try #require(try console.services.database.readBlocking { try $0.fetchOne(DeviceGroupRecord.query()) })
            try await admin.get("/groups")
            try await admin.post("/groups", ["name": "Clinic iPads", "parentID": clinics.id.description])
            let child = try #require(try console.services.database.readBlocking {
                try $0.fetchOne(DeviceGroupRecord.query().filter("name", .equal, "Clinic iPads"))
            })
            #expect(child.parentID == clinics.id)

            try await admin.get("/groups/\(clinics.id)/edit")
            let cycle = try await admin.post("/groups/\(clinics.id)", ["name": "Clinics", "parentID": child.id.description])
            #expect(cycle.status == .unprocessableContent)
            #expect(cycle.body.contains("cannot sit inside itself"))

            try await admin.get("/groups")
            let duplicate = try await admin.post("/groups", ["name": "clinics", "parentID": ""])
            #expect(duplicate.status == .unprocessableContent)
            #expect(duplicate.body.contains("There is already a group called clinics."))

            // A group with a subgroup cannot be removed: its page says why instead of a button,
            // and a forged request is refused with the same reason.
            let page = try await admin.get(Site.Groups.show.link(clinics.id))
            #expect(page.body.contains("id=\"removal-blocked\">Move its 1 subgroup to another group first"))
            #expect(!page.body.contains("id=\"remove-group\""))
            let refused = try await admin.post("/groups/\(clinics.id)/delete")
            #expect(refused.status == .seeOther && refused.location == Site.Groups.show.link(clinics.id))
            #expect(try await admin.get(Site.Groups.show.link(clinics.id)).body.contains("still holds devices or subgroups"))
        }
        #expect(try console.services.database.readBlocking { try $0.count(DeviceGroupRecord.query()) } == 2)
    }

    @Test func aGroupPageListsTheProfilesThatReachItWithTheirSource() async throws {
        let console = try await TestConsole.make(demo: true)
        try await console.addUser("vic@example.com", role: .viewer)
        try await console.addUser("ann@example.com", role: .admin)
        let groups = try await console.services.database.read { try $0.fetch(DeviceGroupRecord.query()) }
        let clinics = try #require(groups.first { $0.name == "Clinics" }), ipads = try #require(groups.first { $0.name == "Clinic iPads" })
        try await console.test { client in
            let viewer = Browser(client)
            try await viewer.signIn("vic@example.com", password: TestConsole.password)
            let page = try await viewer.get(Site.Groups.show.link(ipads.id))
            #expect(page.status == .ok)
            #expect(page.body.contains("<a href=\"/groups/\(clinics.id)\">Clinics</a> › Clinic iPads"), "where it sits")
            #expect(page.body.contains(">12 devices</a>"))
            #expect(page.body.contains("Clinic data protection</a>") && page.body.contains("Inherited from <a href=\"/groups/\(clinics.id)\">Clinics</a>"))
            #expect(!page.body.contains("/remove\""), "viewers read; no unassign links")
            let parent = try await viewer.get(Site.Groups.show.link(clinics.id))
            #expect(parent.body.contains("Assigned here") && parent.body.contains("id=\"subgroups\""))
            #expect(parent.body.contains(">12 devices</a>, 0 directly in this group"))

            let admin = Browser(client)
            try await admin.signIn("ann@example.com", password: TestConsole.password)
            let editable = try await admin.get(Site.Groups.show.link(ipads.id))
            let profile = try #require(try await console.services.database.read {
                try $0.fetchOne(ProfileRecord.query().filter("identifier", .equal, "com.example.profiles.clinic"))
            })
            #expect(editable.body.contains("href=\"\(Site.Profiles.unassign.link(profile.id, clinics.id))\">Unassign from Clinics…"),
                    "an inherited profile is unassigned where it is assigned, through the preview")
            #expect(editable.body.contains("Move its 12 devices to another group first"))

            // An empty group says what removing it takes with it.
            try await admin.get("/groups")
            try await admin.post("/groups", ["name": "Spare", "parentID": ""])
            let spare = try #require(try await console.services.database.read { try $0.fetchOne(DeviceGroupRecord.query().filter("name", .equal, "Spare")) })
            _ = try await console.services.assignments.assign(profile.id, to: spare.id, by: .system)
            let empty = try await admin.get(Site.Groups.show.link(spare.id))
            #expect(empty.body.contains("data-confirm=\"Remove the group Spare? Its assignment goes with it; the profiles themselves stay.\""))
            #expect(try await admin.get(Site.Groups.show.link(RecordID(999_999))).status == .notFound)
        }
    }

    @Test func anAdminAddsADeviceAndABadFormComesBackAsTyped() async throws {
        let console = try await TestConsole.make()
        try await console.addUser("ann@example.com", role: .admin)
        try await console.test { client in
            let admin = Browser(client)
            try await admin.signIn("ann@example.com", password: TestConsole.password)
            try await admin.get("/devices/new")
            let bad = try await admin.post("/devices", [
                "name": "Lobby 1", "model": "iPad", "osVersion": "eighteen", "serialNumber": "F9FXK1", "udid": "xyz",
                "supervised": "no", "otherApps": "com.example.kiosk\nnot a bundle",
            ])
            #expect(bad.status == .unprocessableContent)
            #expect(bad.body.contains(#"id="device-os-error""#))
            #expect(bad.body.contains(#"id="device-serial-error""#))
            #expect(bad.body.contains(#"id="device-udid-error""#))
            #expect(bad.body.contains(#"id="device-apps-error""#))
            #expect(bad.body.contains(#"value="eighteen""#))
            #expect(bad.body.contains(#"value="no" checked"#))

            let good = try await admin.post("/devices", [
                "name": "Lobby 1", "model": "iPad", "osVersion": "18.1", "serialNumber": "f9fxk1q2w3", "udid": "00008030-001A35E03C8A802E",
                "supervised": "yes", "otherApps": "com.example.kiosk",
            ])
            #expect(good.status == .seeOther)
            let page = try await admin.get(try #require(good.location))
            #expect(page.body.contains("F9FXK1Q2W3"))
            #expect(page.body.contains("com.example.kiosk"))
        }
        let device = try console.services.database.readBlocking { try $0.fetchOne(DeviceRecord.query()) }
        #expect(device?.installedApps == ["com.example.kiosk"])
        #expect(device?.isSupervised == true)
    }

    @Test func theDeviceListPagesByNameWithoutSkippingOrRepeating() async throws {
        let console = try await TestConsole.make()
        try await console.addUser("val@example.com", role: .viewer)
        let now = Date()
        try console.services.database.writeBlocking { connection in
            for index in 0..<120 {
                _ = try connection.insert(DeviceRecord(
                    name: "Kiosk \(String(format: "%03d", index % 60))", model: .iPad, osVersion: "18.1",
                    serialNumber: "SERIAL\(1000 + index)", udid: String(format: "%040d", index), isSupervised: true, owner: "",
                    groupID: nil, installedApps: [], enrolledAt: now, lastCheckInAt: nil))
            }
        }
        try await console.test { client in
            let viewer = Browser(client)
            try await viewer.signIn("val@example.com", password: TestConsole.password)
            var path: String? = "/devices"
            var seen: [String] = []
            while let next = path {
                let page = try await viewer.get(next)
                #expect(page.status == .ok)
                seen += page.body.components(separatedBy: #"<th scope="row"><a href="/devices/"#).dropFirst().map { String($0.prefix { $0 != "\"" }) }
                path = page.body.range(of: #"rel="next""#) == nil ? nil
                    : page.body.components(separatedBy: #"class="button small" href=""#).dropFirst().first.map { String($0.prefix { $0 != "\"" }).replacingOccurrences(of: "&amp;", with: "&") }
            }
            #expect(seen.count == 120)
            #expect(Set(seen).count == 120)
        }
    }
}
