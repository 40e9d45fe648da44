import Foundation

/// What a `.mobileconfig` brings in: the profile's name and identifier, the payloads this
/// console knows, and each one it left out with the reason — so an admin sees exactly what
/// did not come across. Reads the property list only; the signature is checked before.
public struct MobileConfigImport: Equatable, Sendable {
    public struct LeftOut: Equatable, Sendable {
        public let payloadType: String
        public let name: String
        public let reason: String

        public init(payloadType: String, name: String, reason: String) {
            self.payloadType = payloadType
            self.name = name
            self.reason = reason
        }
    }

    public var name: String
    public var identifier: String
    public var description: String
    public var payloads: [Payload]
    public var leftOut: [LeftOut]

    /// Refuses what is not a configuration profile at all; everything inside one is either
    /// imported or listed in `leftOut`.
    public static func read(_ plist: PropertyList) throws(ImportProblem) -> MobileConfigImport {
        guard case .dictionary(let top) = plist else { throw ImportProblem.notAProfile("its property list is not a dictionary.") }
        let keys = Dictionary(top, uniquingKeysWith: { first, _ in first })
        guard case .string("Configuration")? = keys["PayloadType"] else {
            throw ImportProblem.notAProfile("this property list is not a configuration profile (its PayloadType is not Configuration).")
        }
        guard case .array(let content)? = keys["PayloadContent"] else { throw ImportProblem.notAProfile("it has no PayloadContent.") }
        let name = keys["PayloadDisplayName"]?.text.flatMap { ProfileRules.nameProblem($0) == nil ? $0 : nil } ?? "Imported profile"
        let identifier = keys["PayloadIdentifier"]?.text.flatMap { ProfileRules.identifierProblem($0) == nil ? $0 : nil } ?? ""
        let description = keys["PayloadDescription"]?.text.flatMap { ProfileRules.descriptionProblem($0) == nil ? $0 : nil } ?? ""
        var result = MobileConfigImport(name: name, identifier: identifier, description: description, payloads: [], leftOut: [])
        for item in content {
            result.take(item)
        }
        return result
    }

    private mutating func take(_ item: PropertyList) {
        guard case .dictionary(let pairs) = item else {
            leftOut.append(LeftOut(payloadType: "?", name: "?", reason: "An entry of PayloadContent is not a dictionary."))
            return
        }
        let keys = Dictionary(pairs, uniquingKeysWith: { first, _ in first })
        let type = keys["PayloadType"]?.text ?? "?"
        let name = keys["PayloadDisplayName"]?.text ?? type
        func leave(_ reason: String) { leftOut.append(LeftOut(payloadType: type, name: name, reason: reason)) }
        let payload: Payload
        switch type {
        case "com.apple.app.lock":
            guard let lock = Self.singleAppMode(keys, leave: leave) else { return }
            payload = Payload(lock)
        case "com.apple.applicationaccess":
            guard case .array(let apps)? = keys["autonomousSingleAppModePermittedAppIDs"] else {
                return leave("Restrictions other than the ASAM allowlist are not payloads this console manages.")
            }
            let others = pairs.map(\.0).filter { !$0.hasPrefix("Payload") && $0 != "autonomousSingleAppModePermittedAppIDs" }
            if !others.isEmpty { leave("Its other restrictions (\(others.sorted().joined(separator: ", "))) are not imported; the ASAM allowlist is.") }
            payload = Payload(ASAMAllowlist(appIdentifiers: apps.compactMap(\.text)))
        case "com.payloadconsole.sdk":
            return takeSDKSettings(pairs.filter { !$0.0.hasPrefix("Payload") }, type: type)
        default:
            return leave("Not a payload this console manages.")
        }
        add(payload, type: type, name: name)
    }

    /// Keeps a payload that passes its own checks and is the first of its kind.
    private mutating func add(_ payload: Payload, type: String, name: String) {
        func leave(_ reason: String) { leftOut.append(LeftOut(payloadType: type, name: name, reason: reason)) }
        if let problem = payload.validate().messages.sorted(by: { $0.key < $1.key }).first {
            return leave("Refused: \(problem.value)")
        }
        if payloads.contains(where: { $0.kind == payload.kind }) {
            return leave("A profile holds one \(payload.kind.displayName) payload; the first was imported.")
        }
        payloads.append(payload)
    }

    /// The SDK settings dictionary: each named entry becomes its payload, or is listed with why not.
    private mutating func takeSDKSettings(_ entries: [(String, PropertyList)], type: String) {
        for (key, value) in entries {
            let name = "SDK settings › \(key)"
            switch SDKProfileReader.payload(named: key, value) {
            case .success(let payload): add(payload, type: type, name: name)
            case .failure(let unreadable): leftOut.append(LeftOut(payloadType: type, name: name, reason: unreadable.reason))
            }
        }
    }

    /// `App` with `Identifier`, `Options` and `UserEnabledOptions` under Apple's keys.
    private static func singleAppMode(_ keys: [String: PropertyList], leave: (String) -> Void) -> SingleAppMode? {
        guard case .dictionary(let app)? = keys["App"], let identifier = Dictionary(app, uniquingKeysWith: { a, _ in a })["Identifier"]?.text else {
            leave("Single App Mode without App.Identifier.")
            return nil
        }
        let appKeys = Dictionary(app, uniquingKeysWith: { first, _ in first })
        var lock = SingleAppMode(appIdentifier: identifier)
        var unknown: [String] = []
        if case .dictionary(let options)? = appKeys["Options"] {
            for (key, value) in options {
                guard let field = SingleAppMode.optionFields.first(where: { $0.appleKey == key }), case .boolean(let flag) = value else { unknown.append(key); continue }
                lock.options[keyPath: field.keyPath] = flag
            }
        }
        if case .dictionary(let options)? = appKeys["UserEnabledOptions"] {
            for (key, value) in options {
                guard let field = SingleAppMode.userEnabledOptionFields.first(where: { $0.appleKey == key }), case .boolean(let flag) = value else { unknown.append(key); continue }
                lock.userEnabledOptions[keyPath: field.keyPath] = flag
            }
        }
        if !unknown.isEmpty { leave("Unknown Single App Mode options left out: \(unknown.sorted().joined(separator: ", ")).") }
        return lock
    }
}

extension PropertyList {
    /// The string inside, if it is one.
    var text: String? {
        if case .string(let value) = self { value } else { nil }
    }
}
