import Domain
import Foundation
import Hummingbird
import Storage

/// The two endpoints an enrolled device talks to. Check-in: Authenticate, TokenUpdate and
/// CheckOut change the device's records; the messages the console does not serve yet get a
/// status that says so. Command: the device reports on what it was sent (or says Idle) and
/// gets the next command. Each message must be signed by the device's own certificate.
struct MDMController {
    let identity: MDMIdentity
    let checkIns: MDMCheckIns
    let exchange: MDMCommandExchange

    func register(on routes: MDMRoutes) {
        routes.on(.put, "checkin", access: .mdmDevice) { request, context in try await checkIn(request, context) }
        routes.on(.put, "command", access: .mdmDevice) { request, context in try await command(request, context) }
    }

    func checkIn(_ request: Request, _ context: MDMRequestContext) async throws -> Response {
        let message = try await identity.message(in: request)
        let checkIn: CheckInMessage
        do {
            checkIn = try CheckInMessage.read(message.propertyList)
        } catch {
            throw MDMRefusal(.badRequest, "The check-in message is not valid: \(error.description)")
        }
        if case .unsupported(let type) = checkIn { throw Self.unsupported(type) }
        do {
            try await checkIns.handle(checkIn, signedBy: message.certificate.serial)
        } catch let refusal as MDMCheckIns.Refusal {
            throw MDMRefusal(.forbidden, Self.words(refusal), logged: true)
        }
        return Response(status: .ok)
    }

    func command(_ request: Request, _ context: MDMRequestContext) async throws -> Response {
        let message = try await identity.message(in: request)
        let report: CommandReportMessage
        do {
            report = try CommandReportMessage.read(message.propertyList)
        } catch {
            throw MDMRefusal(.badRequest, "The command report is not valid: \(error.description)")
        }
        let deviceID = try identity.device(speakingFor: report.enrollment, with: message)
        let next: PropertyList?
        do {
            next = try await exchange.exchange(report, rawBody: message.text, from: deviceID)
        } catch let refusal as MDMCommandExchange.Refusal {
            switch refusal {
            case .notEnrolled: throw MDMRefusal(.forbidden, "The device is not enrolled (it checked out): enroll it again.", logged: true)
            case .notItsCommand: throw MDMRefusal(.forbidden, "The report names a command this device was not sent, or one already answered.", logged: true)
            }
        }
        guard let next else { return Response(status: .ok) }
        return Response(status: .ok, headers: [.contentType: "application/xml; charset=utf-8"],
                        body: .init(byteBuffer: ByteBuffer(string: next.xmlDocument())))
    }

    static func words(_ refusal: MDMCheckIns.Refusal) -> String {
        switch refusal {
        case .unknownCertificate: "The signing certificate is not one this console issued."
        case .revokedCertificate: "The signing certificate was revoked: enroll the device again."
        case .anotherDevicesCertificate: "The signing certificate belongs to another device than the message names."
        case .notAuthenticated: "The device has not authenticated with this certificate: Authenticate comes first."
        }
    }

    /// The check-in messages a later version serves; each answer says why it is refused now.
    static func unsupported(_ type: String) -> MDMRefusal {
        switch type {
        case "UserAuthenticate":
            // 410 tells the device there is no user channel, so it stops asking.
            MDMRefusal(.gone, "This console has no user channel: UserAuthenticate is not served.")
        case "DeclarativeManagement":
            MDMRefusal(.badRequest, "Declarative device management is not supported yet.")
        default:
            MDMRefusal(.badRequest, "\(type) is not supported yet.")
        }
    }
}
