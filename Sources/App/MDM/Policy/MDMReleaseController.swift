import Domain
import Foundation
import Hummingbird
import Storage

extension Site.Devices {
    /// An admin lets a real device leave management (`MDMRelease`).
    static let releaseFromMDM = SiteRoute<RecordID<DeviceRecord>>(.post, "/devices/{id}/mdm/release", role: .admin)
}

/// Letting a real device leave management: the device page's form and the API's endpoint.
struct MDMReleaseController {
    let release: MDMRelease
    let cookies: CookieJar

    static let releaseDevice = Endpoint<RecordID<DeviceRecord>, ReleaseBody, ReleaseAnswer>(
        .post, "/api/v1/devices/{id}/mdm/release", role: .admin,
        "Let a real device leave management: its policy is no longer followed, the console's waiting policy commands are taken back, "
            + "and it is asked to remove its MDM profile (first, with removeFirst, the Single App Mode lock, the apps the catalog says go with "
            + "management, and the policy profile). Nothing is deleted from the console; the device can enroll again. Answers the commands queued, in order",
        success: .accepted,
        otherAnswers: [409: "device_unenrolled: the device is not enrolled over MDM; device_leaving: it is already leaving management"])

    func register(pages: SecuredRoutes, api: SecuredRoutes) {
        pages.on(Site.Devices.releaseFromMDM) { id, request, context in
            let back = Site.Devices.show.link(id)
            let flash: Flash
            do {
                let steps = try await release.release(id, removingFirst: context.form.isChecked("removeFirst"), by: context.user)
                flash = .notice("The device leaves management: \(steps.count) commands queued, the MDM profile's removal last. "
                    + "Its record, history, logs and notes stay.")
            } catch MDMRelease.Refusal.notEnrolled {
                flash = .error("The device is not enrolled over MDM: there is nothing to leave.")
            } catch MDMRelease.Refusal.alreadyLeaving {
                flash = .error("The device is already leaving management.")
            }
            return .seeOther(back, flash: flash, cookies: cookies, request: request)
        }
        api.handle(Self.releaseDevice) { id, body, request, context in
            try APIQuery.refuseUnknown(of: request, allowed: [])
            do {
                let steps = try await release.release(id, removingFirst: body.removeFirst ?? true, by: context.user)
                return Reply(ReleaseAnswer(commands: steps.map { ReleaseAnswer.Step(requestType: $0.requestType, summary: $0.summary) }))
            } catch MDMRelease.Refusal.notEnrolled {
                throw APIError(status: .conflict, code: .deviceUnenrolled, message: "The device is not enrolled over MDM: there is nothing to leave.")
            } catch MDMRelease.Refusal.alreadyLeaving {
                throw APIError(status: .conflict, code: .deviceLeaving, message: "The device is already leaving management.")
            }
        }
    }
}

/// `POST /api/v1/devices/{id}/mdm/release`: `removeFirst` (default true) removes the console's
/// profiles and the apps that go with management before the MDM profile.
struct ReleaseBody: APIRequestBody {
    let removeFirst: Bool?

    enum CodingKeys: String, CodingKey, CaseIterable {
        case removeFirst
    }
}

struct ReleaseAnswer: APIAnswer {
    struct Step: Codable, Sendable {
        let requestType: DeviceCommand.RequestType
        let summary: String
    }

    let commands: [Step]
}
