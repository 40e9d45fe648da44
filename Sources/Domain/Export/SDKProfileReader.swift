import Foundation

/// The SDK settings of a `.mobileconfig` (the vendor payload `SDKProfile` writes) read back
/// into payloads, one named entry at a time under the same key names. An entry that is not in
/// that shape is left out with the reason; branding is always left out, since its logos are
/// images stored in the console that exported it. Certificate details are left for the app
/// layer to read from each certificate's bytes.
enum SDKProfileReader {
    /// The payload of one entry, or why it was left out.
    static func payload(named key: String, _ value: PropertyList) -> Result<Payload, Unreadable> {
        guard let entry = Entry(value) else { return .failure(Unreadable("\(key) is not a dictionary.")) }
        do {
            switch key {
            case "DataLossPrevention":
                var dlp = DataLossPrevention()
                for field in DataLossPrevention.fields { dlp[keyPath: field.keyPath] = try entry.bool(field.sdkKey) }
                return .success(.dlp(dlp))
            case "Geofence":
                return .success(.geofence(Geofence(areas: try entry.dictionaries("Areas").map { area in
                    Geofence.Area(name: try area.string("Name"), latitude: try area.number("Latitude"), longitude: try area.number("Longitude"),
                                  radiusMeters: try area.number("Radius"))
                })))
            case "Logging":
                return .success(.logging(Logging(enabled: try entry.bool("Enabled"), level: try entry.choice("Level", \LogLevel.displayName),
                                                 wifiOnly: try entry.bool("WiFiOnly"))))
            case "Authentication":
                let offline = try entry.dictionary("OfflineAccess")
                return .success(.authentication(Authentication(
                    type: try entry.choice("AuthenticationType", \AuthenticationType.sdkValue), singleSignOn: try entry.bool("SingleSignOn"),
                    offlineAccessEnabled: try offline.bool("Enabled"), maximumOfflineMinutes: Int(try offline.number("MaximumOfflineMinutes")))))
            case "CustomSettings":
                return .success(.customSettings(CustomSettings(text: try entry.string("Settings"))))
            case "Compliance":
                return .success(.compliance(Compliance(rules: try entry.dictionaries("Rules").map { rule in
                    let subject: ComplianceRule.Subject = try rule.string("Subject") == "OSVersion" ? .operatingSystem : .app(try rule.string("ApplicationIdentifier"))
                    return ComplianceRule(subject: subject, comparison: try rule.choice("Operator", \VersionComparison.sdkValue),
                                          version: try rule.string("Version"), action: try rule.choice("Action", \ComplianceRule.Action.sdkValue))
                })))
            case "CompromisedProtection":
                return .success(.compromisedProtection(CompromisedProtection(enabled: try entry.bool("Enabled"),
                                                                             action: try entry.choice("Action", \ComplianceRule.Action.sdkValue))))
            case "CertificatePinning":
                let certificates = try entry.dictionaries("Certificates").map { PinnedCertificate(unread: Data(try $0.data("Data"))) }
                return .success(.certificatePinning(CertificatePinning(enabled: try entry.bool("Enabled"), hosts: try entry.strings("Hosts"),
                                                                       certificates: certificates)))
            case "AppTunnel":
                let mode: AppTunnel.Mode = switch try entry.string("Mode") {
                case "TunnelAll": .everything
                case "Split": .split
                default: throw Unreadable("AppTunnel.Mode is neither TunnelAll nor Split.")
                }
                return .success(.appTunnel(AppTunnel(mode: mode, directAddresses: try entry.strings("AppTunnelURLs"))))
            case "IntegratedAuthentication":
                return .success(.integratedAuthentication(IntegratedAuthentication(
                    enabled: try entry.bool("Enabled"), allowedSites: try entry.strings("AllowedSites"),
                    credential: try entry.choice("AuthenticationOption", \IntegratedAuthentication.Credential.sdkValue))))
            case "Analytics":
                return .success(.analytics(Analytics(enabled: try entry.bool("Enabled"))))
            case "ManagedAppConfiguration":
                // Not in this console's own exports (it reaches devices as an MDM command), but
                // read when a file carries it: each value's type is the key's type.
                let configuration = try entry.dictionary("Configuration")
                return .success(.managedAppConfig(ManagedAppConfiguration(
                    appIdentifier: try entry.string("Identifier"),
                    keys: try configuration.pairs.map { name, value in
                        guard let typed = ConfigValue(value) else {
                            throw Unreadable("Configuration.\(name.clipped(to: 60)) is a value the form cannot hold (a dictionary, data or a mixed list).")
                        }
                        return ConfigKey(name: name, type: typed.type, value: typed)
                    })))
            case "Branding":
                return .failure(Unreadable("Branding's logos are images stored in the console that exported it: set branding in its form."))
            default:
                return .failure(Unreadable("\(key) is not an SDK setting this console knows."))
            }
        } catch {
            return .failure(error as? Unreadable ?? Unreadable("\(key) could not be read."))
        }
    }

    struct Unreadable: Error, Equatable {
        let reason: String
        init(_ reason: String) { self.reason = reason }
    }

    /// One dictionary of the SDK profile, with typed reads that name the key they missed.
    private struct Entry {
        /// In the file's order, for the keys of a configuration.
        let pairs: [(String, PropertyList)]
        let keys: [String: PropertyList]

        init?(_ value: PropertyList) {
            guard case .dictionary(let pairs) = value else { return nil }
            self.pairs = pairs
            keys = Dictionary(pairs, uniquingKeysWith: { first, _ in first })
        }

        func missing(_ key: String, _ kind: String) -> Unreadable { Unreadable("\(key) is missing or not \(kind).") }

        func bool(_ key: String) throws -> Bool {
            guard case .boolean(let value)? = keys[key] else { throw missing(key, "true or false") }
            return value
        }

        func string(_ key: String) throws -> String {
            guard let value = keys[key]?.text else { throw missing(key, "a string") }
            return value
        }

        func number(_ key: String) throws -> Double {
            switch keys[key] {
            case .integer(let value)?: return Double(value)
            case .real(let value)?: return value
            default: throw missing(key, "a number")
            }
        }

        func data(_ key: String) throws -> [UInt8] {
            switch keys[key] {
            case .data(let bytes)?: return bytes
            case .string(let text)?: if let bytes = Data(base64Encoded: text) { return Array(bytes) }
            default: break
            }
            throw missing(key, "data")
        }

        func strings(_ key: String) throws -> [String] {
            guard case .array(let items)? = keys[key] else { throw missing(key, "a list") }
            return try items.map { item in
                guard let text = item.text else { throw missing(key, "a list of strings") }
                return text
            }
        }

        func dictionary(_ key: String) throws -> Entry {
            guard let value = keys[key], let entry = Entry(value) else { throw missing(key, "a dictionary") }
            return entry
        }

        func dictionaries(_ key: String) throws -> [Entry] {
            guard case .array(let items)? = keys[key] else { throw missing(key, "a list") }
            return try items.map { item in
                guard let entry = Entry(item) else { throw missing(key, "a list of dictionaries") }
                return entry
            }
        }

        /// The case whose SDK spelling is the string at `key`.
        func choice<Choice: CaseIterable>(_ key: String, _ spelling: KeyPath<Choice, String>) throws -> Choice {
            let given = try string(key)
            guard let choice = Choice.allCases.first(where: { $0[keyPath: spelling] == given }) else {
                throw Unreadable("\(key) “\(given.clipped(to: 40))” is not one of: \(Choice.allCases.map { $0[keyPath: spelling] }.joined(separator: ", ")).")
            }
            return choice
        }
    }
}

extension ConfigValue {
    /// A property-list value as a configuration value; nil for what the form has no type for.
    init?(_ value: PropertyList) {
        switch value {
        case .string(let text): self = .string(text)
        case .integer(let number): self = .integer(number)
        case .real(let number): self = .real(number)
        case .boolean(let flag): self = .boolean(flag)
        case .date(let date): self = .date(date)
        case .array(let items):
            let texts = items.compactMap(\.text)
            guard texts.count == items.count else { return nil }
            self = .stringArray(texts)
        case .data, .dictionary: return nil
        }
    }
}
