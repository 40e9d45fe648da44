import Domain
import Foundation
import Signing
import Storage

/// Brings a `.mobileconfig` in as a new profile: the signature checked and named, the property
/// list read by the safe reader, the payloads this console knows kept, the rest listed with
/// the reason. One transaction: a refused file creates nothing.
struct ProfileImporter: Sendable {
    let database: Database
    let signing: SigningService
    let now: @Sendable () -> Date

    static let maximumBytes = 1_048_576

    struct Outcome {
        let profile: ProfileRecord
        let imported: MobileConfigImport
        /// "Not signed", or who signed it and whether that is this console.
        let signature: String
    }

    func importProfile(_ file: UploadedFile, by actor: Actor) async throws -> Result<Outcome, ImportProblem> {
        guard !file.bytes.isEmpty else { return .failure(ImportProblem(line: nil, "Choose a .mobileconfig file to upload.")) }
        guard file.bytes.count <= Self.maximumBytes else { return .failure(ImportProblem(line: nil, "A profile to import holds at most 1 MB.")) }
        let signed: SignedProfile
        do { signed = try SignedProfile.read(file.bytes) } catch { return .failure(ImportProblem(line: nil, error.description)) }
        if PropertyListReader.isBinaryPlist(Data(signed.content)) {
            return .failure(ImportProblem(line: nil, "Binary property lists are not read; export the profile as XML."))
        }
        var imported: MobileConfigImport
        do {
            imported = try MobileConfigImport.read(try PropertyListReader.read(Data(signed.content)))
        } catch let problem as PropertyListProblem {
            return .failure(ImportProblem(line: problem.line, problem.reason))
        } catch let problem as ImportProblem {
            return .failure(problem)
        }
        Self.readCertificates(of: &imported)
        let signature = describeSignature(signed)
        let time = now()
        let profile = try await database.write { connection in
            let identifier = try Self.freeIdentifier(imported, in: connection)
            let content = ProfileContent(name: imported.name, descriptionMarkdown: imported.description, payloads: imported.payloads)
            let profile = try ProfileStore.insertFirstVersion(identifier: identifier, content: content,
                                                             note: "Imported from \(file.displayName) (\(signature))",
                                                             by: actor, at: time, in: connection)
            try connection.audit("profile.imported", subject: profile.auditSubject, by: actor,
                                 after: "\(imported.payloads.count) payload(s) imported, \(imported.leftOut.count) left out; \(signature)", at: time)
            return profile
        }
        return .success(Outcome(profile: profile, imported: imported, signature: signature))
    }

    private func describeSignature(_ signed: SignedProfile) -> String {
        guard let signer = signed.signer else { return "Not signed" }
        let own = (try? signing.current().sha256Fingerprint) == signed.signerFingerprint
        return "Signed by \(signer), signature intact" + (own ? " (this console's signing identity)" : "; the signer's certificate is not checked against a trust store")
    }

    /// The file's identifier when it is valid and free, else one made from the name; a clash
    /// gets `.imported`, `.imported-2`, ….
    /// Pinned certificates in the SDK settings are read from their bytes, as an upload is; a
    /// payload whose certificate does not read is left out with the reason.
    private static func readCertificates(of imported: inout MobileConfigImport) {
        for index in imported.payloads.indices.reversed() {
            let (settled, errors) = PinnedCertificates.settle(imported.payloads[index])
            if let problem = errors.messages.sorted(by: { $0.key < $1.key }).first {
                let kind = imported.payloads.remove(at: index).kind
                imported.leftOut.append(MobileConfigImport.LeftOut(payloadType: PayloadJSON.sdkTypePrefix + kind.rawValue,
                                                                   name: kind.displayName, reason: "Refused: \(problem.value)"))
            } else {
                imported.payloads[index] = settled
            }
        }
    }

    private static func freeIdentifier(_ imported: MobileConfigImport, in connection: Connection) throws -> String {
        let base = imported.identifier.isEmpty
            ? ProfileRules.suggestedIdentifier(prefix: ProfilesController.identifierPrefix, name: imported.name) : imported.identifier
        return try ProfileStore.isTaken(base, in: connection) ? try ProfileStore.freeIdentifier(base, suffix: "imported", in: connection) : base
    }
}
