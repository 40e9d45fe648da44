import Domain
import Foundation
import Hummingbird
import Storage

/// Who sends an MDM message: the certificate its signature names, and the device that
/// certificate was bound to at Authenticate. No device may speak for another.
struct MDMIdentity: Sendable {
    let authority: DeviceAuthorityStore
    let database: Database
    let now: @Sendable () -> Date

    func message(in request: Request) async throws -> SignedMDMMessage {
        try await SignedMDMMessage.read(request, authority: authority, database: database, at: now())
    }

    /// The device the certificate was bound to at Authenticate, which must be the one the
    /// message names: no device may report for another.
    func device(speakingFor enrollment: MDMEnrollmentID, with certificate: MDMCertificateRecord) async throws -> RecordID<DeviceRecord> {
        guard case .device(let udid) = enrollment else {
            throw MDMRefusal(.badRequest, "User enrollment (EnrollmentID) is not supported yet: enroll the device itself.")
        }
        guard let deviceID = certificate.deviceID else {
            throw MDMRefusal(.forbidden, "The certificate has not authenticated yet: Authenticate comes first.", logged: true)
        }
        let enrolled = try await database.read { try $0.fetchOne(MDMDeviceRecord.query().filter("deviceID", .equal, deviceID)) }
        guard let enrolled, enrolled.udid == udid.uppercased(), enrolled.certificateSerial == certificate.serial else {
            throw MDMRefusal(.forbidden, "The message names another device than the one this certificate belongs to.", logged: true)
        }
        return deviceID
    }
}
