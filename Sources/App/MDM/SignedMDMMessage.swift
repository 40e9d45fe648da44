import Domain
import Foundation
import HTTPTypes
import Hummingbird
import Signing
import Storage

/// A check-in or command-endpoint message whose `Mdm-Signature` checked out: signed over
/// this exact body by a certificate the console's authority issued, unexpired and not revoked.
/// Which device it may speak for is the certificate's record: bound at Authenticate.
struct SignedMDMMessage: Sendable {
    let body: [UInt8]
    let propertyList: PropertyList
    let certificate: MDMCertificateRecord

    /// The largest message a device sends: an InstalledApplicationList of a device with
    /// hundreds of apps, or a ProfileList with their payloads, stays well below this.
    static let maximumBytes = 4 << 20

    /// XML elements a message may hold: far more than any real answer, far fewer than a
    /// body built to make the reader work.
    static let readerLimits = XMLReader.Limits(maximumDepth: 32, maximumElementCount: 200_000)

    /// Reads and checks the request. Every refusal leaves the database as it was.
    static func read(_ request: Request, authority: DeviceAuthorityStore, database: Database, at time: Date) async throws -> SignedMDMMessage {
        var request = request
        let body = Array(try await request.collectBody(upTo: maximumBytes).readableBytesView)
        guard let header = request.headers[.mdmSignature] else {
            throw MDMRefusal(.unauthorized, "The message is not signed: the enrollment profile asks for Mdm-Signature (SignMessage).", logged: true)
        }
        guard let signature = Data(base64Encoded: header.filter { !$0.isWhitespace }) else {
            throw MDMRefusal(.unauthorized, "Mdm-Signature is not base64.", logged: true)
        }
        guard let issuer = try await authority.stored() else {
            throw MDMRefusal(.unauthorized, "This console has issued no device certificates: enroll the device first.", logged: true)
        }
        let signer: SignerCertificate
        do throws(MessageSignatureError) {
            signer = try MessageSignature.verify(Array(signature), over: body, issuedBy: issuer, at: time)
        } catch {
            throw MDMRefusal(.unauthorized, "Mdm-Signature refused: \(error.description)", logged: true)
        }
        guard let certificate = try await database.read({ try $0.fetchOne(MDMCertificateRecord.query().filter("serial", .equal, signer.serialHex)) }) else {
            throw MDMRefusal(.forbidden, "The signing certificate (serial \(signer.serialHex.prefix(16))) is not one this console issued.", logged: true)
        }
        guard certificate.revokedAt == nil else {
            throw MDMRefusal(.forbidden, "The signing certificate was revoked (the device unenrolled or enrolled again): enroll the device again.", logged: true)
        }
        let plist: PropertyList
        do throws(PropertyListProblem) {
            plist = try PropertyListReader.read(Data(body), limits: readerLimits)
        } catch {
            throw MDMRefusal(.badRequest, "The body is not an XML property list: \(error.description)")
        }
        return SignedMDMMessage(body: body, propertyList: plist, certificate: certificate)
    }

    /// The body as text, as the command's report keeps it.
    var text: String { String(decoding: body, as: UTF8.self) }
}

extension HTTPField.Name {
    static let mdmSignature = Self("Mdm-Signature")!
}
