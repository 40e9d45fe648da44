import Domain
import Foundation
import Hummingbird
import Signing
import Storage
import Synchronization

/// Who sends an MDM message: the certificate its signature names, and the device that
/// certificate was bound to at Authenticate. No device may speak for another.
///
/// A woken device checks in again and again, so what identifies it is kept in memory: the
/// certificate's record and its binding, by serial. Every change to them — a certificate
/// issued, bound at Authenticate or revoked at CheckOut or re-enrollment — writes
/// `mdm_certificates`, and any commit to it (here, or on PostgreSQL another console's) drops
/// them all; a row read while such a commit happened is not kept.
final class MDMIdentity: Sendable {
    private let authority: DeviceAuthorityStore
    private let database: Database
    private let now: @Sendable () -> Date
    private let known = Mutex<[String: Signer]>([:])
    private let verifier = Mutex<SignatureVerifier?>(nil)

    /// A certificate the console issued, and the device it speaks for once bound.
    struct Signer: Sendable {
        let certificate: MDMCertificateRecord
        /// The device's UDID, as recorded when the certificate authenticated.
        let udid: String?
    }

    init(authority: DeviceAuthorityStore, database: Database, now: @escaping @Sendable () -> Date) {
        self.authority = authority
        self.database = database
        self.now = now
        // Only Authenticate and CheckOut change what a binding says, and both write the
        // certificates too; a device's other writes (last seen, tokens) change nothing here.
        database.onCommit(tables: [MDMCertificateRecord.tableName]) { [weak self] _ in self?.known.withLock { $0 = [:] } }
    }

    func message(in request: Request) async throws -> SignedMDMMessage {
        try await SignedMDMMessage.read(request, verifier: currentVerifier, signer: signer(serial:), at: now())
    }

    /// The stored CA parsed for checking signatures, made again when another CA is stored.
    private func currentVerifier() async throws -> SignatureVerifier? {
        guard let ca = try await authority.stored() else { return nil }
        if let kept = verifier.withLock({ $0 }), kept.authorityFingerprint == ca.sha256Fingerprint { return kept }
        let made = try SignatureVerifier(authority: ca)
        verifier.withLock { $0 = made }
        return made
    }

    private func signer(serial: String) async throws -> Signer? {
        if let signer = known.withLock({ $0[serial] }) { return signer }
        let stamp = database.commitCount
        let found = try await database.read { connection -> Signer? in
            guard let certificate = try connection.fetchOne(MDMCertificateRecord.query().filter("serial", .equal, serial)) else { return nil }
            var udid: String?
            if let deviceID = certificate.deviceID {
                let bound = try connection.fetch(Binding.self, "SELECT udid, certificateSerial FROM mdm_devices WHERE deviceID = \(deviceID)").first
                if bound?.certificateSerial == serial { udid = bound?.udid }
            }
            return Signer(certificate: certificate, udid: udid)
        }
        if let found {
            known.withLock { known in
                guard database.commitCount == stamp else { return }
                known[serial] = found
            }
        }
        return found
    }

    private struct Binding: Codable {
        let udid: String
        let certificateSerial: String?
    }

    /// The device the certificate was bound to at Authenticate, which must be the one the
    /// message names: no device may report for another.
    func device(speakingFor enrollment: MDMEnrollmentID, with message: SignedMDMMessage) throws -> RecordID<DeviceRecord> {
        guard case .device(let udid) = enrollment else {
            throw MDMRefusal(.badRequest, "User enrollment (EnrollmentID) is not supported yet: enroll the device itself.")
        }
        guard let deviceID = message.signer.certificate.deviceID else {
            throw MDMRefusal(.forbidden, "The certificate has not authenticated yet: Authenticate comes first.", logged: true)
        }
        guard message.signer.udid == udid.uppercased() else {
            throw MDMRefusal(.forbidden, "The message names another device than the one this certificate belongs to.", logged: true)
        }
        return deviceID
    }
}
