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
