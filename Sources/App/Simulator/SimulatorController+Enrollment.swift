import Domain
import Foundation
import Hummingbird
import Logging
import NIOCore
import Storage

/// "New simulated device": a device with a made-up serial number and UDID and a check-in token
/// shown once.
extension SimulatorController {
    func enrollmentForm(_ form: DeviceForm, request: Request, context: SignedInContext, status: HTTPResponse.Status = .ok) async throws -> Response {
        let (groups, apps) = try await catalogReader.formChoices()
        let view = form.view(groups: groups, apps: apps, enrolling: true)
        return try renderer.page("devices/form", title: view.title, model: view, request: request, context: context, status: status)
    }

    struct EnrolledView {
        let simulatorPath: String
        let devicePath: String
        let name: String
        let udid: String
        let token: String
        let checkInExample: String
        /// Whether the simulated device's first check-in ran; if not, it runs when the
        /// simulator is opened.
        let checkedIn: Bool
    }

    @Sendable func enroll(request: Request, context: SignedInContext) async throws -> Response {
        var submitted = DeviceForm(context.form)
        submitted.serialNumber = Self.randomSerial()
        submitted.udid = Self.randomUDID()
        if let draft = submitted.validDraft() {
            do {
                let (token, hash) = DeviceTokens.mint()
                let device = try await catalog.addDevice(draft, groupID: submitted.groupID, tokenHash: hash, by: Actor(context.user))
                // The device and its token are saved: its token is shown whatever happens to
                // the first check-in, since it is shown only now and enrolling again would
                // make a second device.
                var checkedIn = true
                do {
                    try await simulator.sync(device.id)
                } catch {
                    checkedIn = false
                    context.logger.warning("A simulated device's first check-in failed after enrolling", metadata: ["device": "\(device.id)", "error": "\(error)"])
                }
                let view = EnrolledView(
                    simulatorPath: Site.Simulator.show.link(device.id), devicePath: Site.Devices.show.link(device.id), name: device.name, udid: device.udid, token: token,
                    checkInExample: "curl -H 'Authorization: Bearer \(token)' \(Self.origin(of: request))/api/v1/device/policy",
                    checkedIn: checkedIn)
                return try renderer.page("simulator/enrolled", title: "Enrolled \(device.name)", model: view, request: request, context: context)
            } catch let refusal as CatalogRefusal {
                submitted.errors.merge(refusal.messages) { $1 }
            }
        }
        return try await enrollmentForm(submitted, request: request, context: context, status: .unprocessableContent)
    }

    static func randomSerial() -> String {
        let alphabet = Array("ABCDEFGHJKLMNPQRSTUVWXYZ0123456789")
        return "SIM" + String((0..<9).map { _ in alphabet.randomElement()! })
    }

    /// The modern UDID shape: 8 hex digits, a dash, 16 hex digits.
    static func randomUDID() -> String {
        String(format: "00008030-%016llX", UInt64.random(in: 0...UInt64.max) >> 8)
    }

    static func origin(of request: Request) -> String {
        "http://" + (request.head.authority ?? "127.0.0.1:8080")
    }
}
