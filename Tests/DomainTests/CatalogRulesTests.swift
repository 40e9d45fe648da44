import Domain
import Testing

@Suite struct GroupTreeTests {
    // Clinics ← Clinic iPads ← Ward 3
    let tree = GroupTree(parents: [2: 1, 3: 2])

    @Test func lineageRunsFromTheGroupToTheTop() {
        #expect(tree.lineage(of: 3) == [3, 2, 1])
        #expect(tree.lineage(of: 1) == [1])
        #expect(tree.depth(of: 3) == 2)
    }

    @Test func movingAGroupBelowItsOwnDescendantIsACycle() {
        #expect(tree.wouldCreateCycle(settingParentOf: 1, to: 3))
        #expect(tree.wouldCreateCycle(settingParentOf: 2, to: 2))
        #expect(!tree.wouldCreateCycle(settingParentOf: 3, to: 1))
    }

    @Test func aDamagedTreeWithACycleStillAnswers() {
        let looped = GroupTree(parents: [1: 2, 2: 1])
        #expect(looped.lineage(of: 1) == [1, 2])
    }
}

@Suite struct CatalogAppDraftTests {
    @Test func aValidAppHasNoProblems() {
        #expect(CatalogAppDraft(name: " Exam ", bundleID: "com.example.exam", iconColor: "#AABBCC").validate().isEmpty)
    }

    @Test func eachBadFieldIsReportedOnItsOwnName() {
        let errors = CatalogAppDraft(name: "", bundleID: "exam", iconColor: "blue").validate()
        #expect(errors["name"] != nil)
        #expect(errors["bundleID"] != nil)
        #expect(errors["iconColor"] != nil)
    }

    func delivered(_ method: AppDeliveryMethod?, storeID: String = "", manifestURL: String = "", managed: Bool = true) -> ValidationErrors {
        CatalogAppDraft(name: "Lobby", bundleID: "com.example.lobby", isManaged: managed, deliveryMethod: method, storeID: storeID,
                        manifestURL: manifestURL).validate()
    }

    @Test func eachDeliveryReadsItsOwnValueAndRefusesTheOthers() {
        #expect(delivered(.appStore, storeID: " 1234567890 ").isEmpty)
        #expect(delivered(.appStore)["storeID"] != nil, "an App Store app needs its ID")
        for bad in ["0", "-4", "12345678901", "12a", "１２"] { #expect(delivered(.appStore, storeID: bad)["storeID"] != nil, "\(bad)") }
        #expect(delivered(.inHouse, manifestURL: "https://apps.example.com/lobby/manifest.plist").isEmpty)
        for bad in ["", "http://apps.example.com/m.plist", "https://", "https://user:pw@apps.example.com/m.plist", "https://apps.example.com/a b.plist",
                    "https://bad_host/m.plist", "https://apps.example.com/\u{7}", "ftp://apps.example.com"] {
            #expect(delivered(.inHouse, manifestURL: bad)["manifestURL"] != nil, "\(bad)")
        }
        #expect(delivered(.inHouse, storeID: "123", manifestURL: "https://a.example.com/m.plist")["storeID"] != nil, "a stale store ID is not kept unseen")
        #expect(delivered(.takeOver, manifestURL: "https://a.example.com/m.plist")["manifestURL"] != nil)
        #expect(delivered(.takeOver, managed: false)["deliveryMethod"] != nil, "an app the console installs is managed")
        #expect(delivered(nil).isEmpty)
        var flagsAlone = CatalogAppDraft(name: "Lobby", bundleID: "com.example.lobby", preventBackup: true)
        #expect(flagsAlone.validate()["deliveryMethod"] != nil)
        flagsAlone.deliveryMethod = .takeOver
        #expect(flagsAlone.validate().isEmpty && flagsAlone.delivery?.managementFlags == 4)
    }

    @Test func theInstallCommandNamesTheAppAsEachMethodDoes() {
        let store = AppDelivery(method: .appStore, storeID: 915_056_765, removeWithManagement: true, preventBackup: true)
        #expect(PropertyList.dictionary(store.installKeys(bundleID: "com.example.maps"))
            == .dictionary([("iTunesStoreID", .integer(915_056_765)), ("ManagementFlags", .integer(5))]))
        let inHouse = AppDelivery(method: .inHouse, manifestURL: "https://apps.example.com/m.plist")
        #expect(PropertyList.dictionary(inHouse.installKeys(bundleID: "com.example.rounds")) == .dictionary([("ManifestURL", .string("https://apps.example.com/m.plist"))]),
                "no flags: the key is left out (Apple's values are 1, 4 and 5)")
        let takeOver = AppDelivery(method: .takeOver, removeWithManagement: true)
        #expect(PropertyList.dictionary(takeOver.installKeys(bundleID: "com.example.lobby"))
            == .dictionary([("Identifier", .string("com.example.lobby")), ("ChangeManagementState", .string("Managed")), ("ManagementFlags", .integer(1))]))
    }
}

@Suite struct DeviceDraftTests {
    func draft(serial: String = "F9FXK1Q2W3", udid: String = "00008030-001A35E03C8A802E", os: String = "18.1") -> DeviceDraft {
        DeviceDraft(name: "Lobby 1", model: .iPad, osVersion: os, serialNumber: serial, udid: udid, isSupervised: true)
    }

    @Test func bothUDIDFormsAreAccepted() {
        #expect(draft().validate().isEmpty)
        #expect(draft(udid: String(repeating: "a1", count: 20)).validate().isEmpty)
    }

    @Test func malformedIdentifiersAreRefused() {
        #expect(draft(udid: "00008030-001A35E0").validate()["udid"] != nil)
        #expect(draft(serial: "F9-FX").validate()["serialNumber"] != nil)
        #expect(draft(os: "18").validate()["osVersion"] != nil)
        #expect(draft(os: "18.1.2").validate()["osVersion"] == nil)
    }

    @Test func serialAndUDIDAreNormalisedToUpperCase() {
        let normalised = draft(serial: " f9fxk1q2w3 ", udid: "00008030-001a35e03c8a802e").normalised
        #expect(normalised.serialNumber == "F9FXK1Q2W3")
        #expect(normalised.udid == "00008030-001A35E03C8A802E")
    }

    @Test func aModelMustBeChosen() {
        var device = draft()
        device.model = nil
        #expect(device.validate()["model"] != nil)
    }
}
