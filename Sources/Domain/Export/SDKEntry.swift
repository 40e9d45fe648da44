import Foundation

/// One dictionary of an SDK profile, with typed reads that throw `Unreadable` naming the key
/// they missed: what each SDK kind's `init(sdkEntry:)` reads its settings from.
public struct SDKEntry {
    /// Why an entry was left out of an import.
    public struct Unreadable: Error, Equatable {
        public let reason: String
        public init(_ reason: String) { self.reason = reason }
    }

    /// In the file's order, for the keys of a configuration.
    public let pairs: [(String, PropertyList)]
    let keys: [String: PropertyList]

    public init?(_ value: PropertyList) {
        guard case .dictionary(let pairs) = value else { return nil }
        self.pairs = pairs
        keys = Dictionary(pairs, uniquingKeysWith: { first, _ in first })
    }

    func missing(_ key: String, _ kind: String) -> Unreadable { Unreadable("\(key) is missing or not \(kind).") }

    public func bool(_ key: String) throws -> Bool {
        guard case .boolean(let value)? = keys[key] else { throw missing(key, "true or false") }
        return value
    }

    public func string(_ key: String) throws -> String {
        guard let value = keys[key]?.text else { throw missing(key, "a string") }
        return value
    }

    public func number(_ key: String) throws -> Double {
        switch keys[key] {
        case .integer(let value)?: return Double(value)
        case .real(let value)?: return value
        default: throw missing(key, "a number")
        }
    }

    public func data(_ key: String) throws -> [UInt8] {
        switch keys[key] {
        case .data(let bytes)?: return bytes
        case .string(let text)?: if let bytes = Data(base64Encoded: text) { return Array(bytes) }
        default: break
        }
        throw missing(key, "data")
    }

    public func strings(_ key: String) throws -> [String] {
        guard case .array(let items)? = keys[key] else { throw missing(key, "a list") }
        return try items.map { item in
            guard let text = item.text else { throw missing(key, "a list of strings") }
            return text
        }
    }

    public func dictionary(_ key: String) throws -> SDKEntry {
        guard let value = keys[key], let entry = SDKEntry(value) else { throw missing(key, "a dictionary") }
        return entry
    }

    public func dictionaries(_ key: String) throws -> [SDKEntry] {
        guard case .array(let items)? = keys[key] else { throw missing(key, "a list") }
        return try items.map { item in
            guard let entry = SDKEntry(item) else { throw missing(key, "a list of dictionaries") }
            return entry
        }
    }

    /// The case whose SDK spelling is the string at `key`.
    public func choice<Choice: CaseIterable>(_ key: String, _ spelling: KeyPath<Choice, String>) throws -> Choice {
        let given = try string(key)
        guard let choice = Choice.allCases.first(where: { $0[keyPath: spelling] == given }) else {
            throw Unreadable("\(key) “\(given.clipped(to: 40))” is not one of: \(Choice.allCases.map { $0[keyPath: spelling] }.joined(separator: ", ")).")
        }
        return choice
    }
}
