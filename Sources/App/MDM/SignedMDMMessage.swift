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
    let signer: MDMIdentity.Signer
    var certificate: MDMCertificateRecord { signer.certificate }

    /// The largest message a device sends: an InstalledApplicationList of a device with
    /// hundreds of apps, or a ProfileList with their payloads, stays well below this.
    static let maximumBytes = 4 << 20

    /// XML elements a message may hold: far more than any real answer, far fewer than a
    /// body built to make the reader work.
    static let readerLimits = XMLReader.Limits(maximumDepth: 32, maximumElementCount: 200_000)

    /// Reads and checks the request. Every refusal leaves the database as it was.
    static func read(_ request: Request, verifier: () async throws -> SignatureVerifier?, signer known: (String) async throws -> MDMIdentity.Signer?,
                     at time: Date) async throws -> SignedMDMMessage {
        var request = request
        let body = Array(try await request.collectBody(upTo: maximumBytes).readableBytesView)
        guard let header = request.headers[.mdmSignature] else {
            throw MDMRefusal(.unauthorized, "The message is not signed: the enrollment profile asks for Mdm-Signature (SignMessage).", logged: true)
        }
        // Base64 may be folded over lines; the decoder skips what is not base64 only when told.
        guard let signature = Data(base64Encoded: header, options: .ignoreUnknownCharacters), !signature.isEmpty else {
            throw MDMRefusal(.unauthorized, "Mdm-Signature is not base64.", logged: true)
        }
        guard let verifier = try await verifier() else {
            throw MDMRefusal(.unauthorized, "This console has issued no device certificates: enroll the device first.", logged: true)
        }
        let serial: String
        do throws(MessageSignatureError) {
            serial = try verifier.verifiedSerial(of: Array(signature), over: body, at: time)
        } catch {
            throw MDMRefusal(.unauthorized, "Mdm-Signature refused: \(error.description)", logged: true)
        }
        guard let known = try await known(serial) else {
            throw MDMRefusal(.forbidden, "The signing certificate (serial \(serial.prefix(16))) is not one this console issued.", logged: true)
        }
        guard known.certificate.revokedAt == nil else {
            throw MDMRefusal(.forbidden, "The signing certificate was revoked (the device unenrolled or enrolled again): enroll the device again.", logged: true)
        }
        let plist: PropertyList
        do throws(PropertyListProblem) {
            plist = try PropertyListReader.read(Data(body), limits: readerLimits)
        } catch {
            throw MDMRefusal(.badRequest, "The body is not an XML property list: \(error.description)")
        }
        return SignedMDMMessage(body: body, propertyList: plist, signer: known)
    }

    /// The body as text, as the command's report keeps it.
    var text: String { String(decoding: body, as: UTF8.self) }
}

extension HTTPField.Name {
    static let mdmSignature = Self("Mdm-Signature")!
}
