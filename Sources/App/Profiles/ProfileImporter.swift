import Domain
import Foundation
import Signing
import Storage

/// Brings a `.mobileconfig` in, as a new profile or as the next version of one: the signature
/// checked and named, the property list read by the safe reader, the payloads this console
/// knows kept, the rest listed with the reason. A file whose identifier a profile already has
/// (or had, as an earlier import of the same file) is not made into a second copy silently:
/// asked for, the answer names the matching profiles and the caller chooses. One transaction:
/// a refused file creates nothing. Pages and the API call the same method.
struct ProfileImporter: Sendable {
    let database: Database
    let signing: SigningService
    let now: @Sendable () -> Date

    static let maximumBytes = 1_048_576

    /// Where the file's payloads go.
    enum Destination: Equatable, Sendable {
        /// A new profile when no profile matches the file; otherwise the matches are answered.
        case ask
        case newProfile
        /// The next version of this profile.
        case newVersion(of: RecordID<ProfileRecord>)
    }

    struct Outcome {
        let profile: ProfileRecord
        let imported: MobileConfigImport
        /// "Not signed", or who signed it and whether that is this console.
        let signature: String
        /// 1 for a new profile.
        let version: Int
    }

    /// Profiles the file matches: its identifier, or an earlier import of it (`….imported`,
    /// `….imported-2`), and the identifier a new profile would get.
    struct Matches {
        let profiles: [ProfileRecord]
        let imported: MobileConfigImport
        let newIdentifier: String
    }

    enum Answer {
        case imported(Outcome)
        case matches(Matches)
    }

    func importProfile(_ file: UploadedFile, into destination: Destination = .ask, by actor: Actor) async throws -> Result<Answer, ImportProblem> {
        let read: (imported: MobileConfigImport, signed: SignedProfile)
        switch Self.read(file.bytes) {
        case .failure(let problem): return .failure(problem)
        case .success(let value): read = value
        }
        var imported = read.imported
        Self.readCertificates(of: &imported)
        let signature = await describeSignature(read.signed)
        let time = now()
        let note = "Imported from \(file.displayName.isEmpty ? "a file" : file.displayName) (\(signature))"
        let summary = "\(Counted.phrase(imported.payloads.count, "payload")) imported, \(imported.leftOut.count) left out; \(signature)"
        let content = ProfileContent(name: imported.name, descriptionMarkdown: imported.description, payloads: imported.payloads)
        let found = imported
        return try await database.write { connection in
            switch destination {
            case .ask:
                let matches = try Self.matches(found, in: connection)
                if !matches.isEmpty {
                    return .success(.matches(Matches(profiles: matches, imported: found, newIdentifier: try Self.freeIdentifier(found, in: connection))))
                }
                fallthrough
            case .newProfile:
                let profile = try ProfileStore.insertFirstVersion(identifier: try Self.freeIdentifier(found, in: connection), content: content,
                                                                 note: note, by: actor, at: time, in: connection)
                try connection.audit(.profileImported, subject: profile.auditSubject, by: actor, after: summary, at: time)
                return .success(.imported(Outcome(profile: profile, imported: found, signature: signature, version: 1)))
            case .newVersion(let id):
                guard try connection.find(ProfileRecord.self, id: id) != nil else {
                    return .failure(ImportProblem(line: nil, "The profile to add a version to does not exist; import the file as a new profile.",
                                                  code: .profileNotFound))
                }
                let saved = try ProfileStore.insertVersion(of: id, content: content, note: note, action: .profileImported, by: actor, at: time, in: connection)
                return .success(.imported(Outcome(profile: saved.profile, imported: found, signature: signature, version: saved.version.number)))
            }
        }
    }

    /// The file read whole, before anything is written: refused when it is empty, too large,
    /// not a profile at all, or a signed profile whose signature does not hold.
    static func read(_ bytes: [UInt8]) -> Result<(MobileConfigImport, SignedProfile), ImportProblem> {
        guard !bytes.isEmpty else { return .failure(ImportProblem(line: nil, "Choose a .mobileconfig file to upload.", code: .emptyFile)) }
        guard bytes.count <= maximumBytes else { return .failure(ImportProblem(line: nil, "A profile to import holds at most 1 MB.", code: .fileTooLarge)) }
        if PropertyListReader.isBinaryPlist(Data(bytes)) {
            return .failure(ImportProblem(line: nil, "Binary property lists are not read; export the profile as XML.", code: .binaryPlist))
        }
        let signed: SignedProfile
        do {
            signed = try SignedProfile.read(bytes)
        } catch .notAProfile(let detail) {
            return .failure(.notAProfile(detail.hasSuffix(".") ? detail : detail + "."))
        } catch {
            return .failure(ImportProblem(line: nil, error.description, code: .invalidSignature))
        }
        if PropertyListReader.isBinaryPlist(Data(signed.content)) {
            return .failure(ImportProblem(line: nil, "Binary property lists are not read; export the profile as XML.", code: .binaryPlist))
        }
        do {
            return .success((try MobileConfigImport.read(try PropertyListReader.read(Data(signed.content))), signed))
        } catch let problem as PropertyListProblem {
            return .failure(.notAProfile("it does not read as a property list (\(problem.reason))", line: problem.line))
        } catch let problem as ImportProblem {
            return .failure(problem)
        } catch {
            return .failure(.notAProfile("it does not read as a property list."))
        }
    }

    private func describeSignature(_ signed: SignedProfile) async -> String {
        guard let signer = signed.signer else { return "Not signed" }
        // Only an identity already stored can be this console's: an import creates none.
        let own = (try? await signing.stored()?.identity.sha256Fingerprint) == signed.signerFingerprint
        return "Signed by \(signer), signature intact" + (own ? " (this console's signing identity)" : "; the signer's certificate is not checked against a trust store")
    }

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

    /// The file's identifier when it is valid, else one made from the name.
    private static func baseIdentifier(_ imported: MobileConfigImport) -> String {
        imported.identifier.isEmpty ? ProfileRules.suggestedIdentifier(prefix: ProfilesController.identifierPrefix, name: imported.name) : imported.identifier
    }

    /// The base identifier when it is free; a clash gets `.imported`, `.imported-2`, ….
    private static func freeIdentifier(_ imported: MobileConfigImport, in connection: Connection) throws -> String {
        let base = baseIdentifier(imported)
        return try ProfileStore.isTaken(base, in: connection) ? try ProfileStore.freeIdentifier(base, suffix: "imported", in: connection) : base
    }

    /// Profiles with the file's identifier, or made by an earlier import of it.
    private static func matches(_ imported: MobileConfigImport, in connection: Connection) throws -> [ProfileRecord] {
        let base = baseIdentifier(imported)
        let candidates = try connection.fetch(ProfileRecord.query()
            .filter("(identifier = \(base) OR identifier LIKE \(LikePattern.escaped(base) + ".imported%") ESCAPE '\\')").order(by: "id"))
        return candidates.filter { $0.identifier == base || isEarlierImport($0.identifier, of: base) }
    }

    /// `base.imported` or `base.imported-N`, as `freeIdentifier` names a clash (a base too long
    /// for the suffix was shortened, so those are only matched by their identifier).
    private static func isEarlierImport(_ identifier: String, of base: String) -> Bool {
        guard identifier.hasPrefix(base + ".imported") else { return false }
        let rest = identifier.dropFirst(base.count + ".imported".count)
        return rest.isEmpty || (rest.hasPrefix("-") && rest.dropFirst().allSatisfy(\.isNumber) && rest.count > 1)
    }
}
