import Domain
import Hummingbird
import Storage

/// The values a route's address carries, read from its `{name}` segments in order and written
/// back into links.
protocol PathValues: Sendable {
    /// How many segments the values take.
    static var count: Int { get }
    /// How the API document describes each segment.
    static var pathSchemas: [JSONSchema] { get }
    init(pathSegments: [String]) throws
    var pathSegments: [String] { get }
}

/// The values of an address that carries none.
struct NoValues: PathValues {
    static var count: Int { 0 }
    static var pathSchemas: [JSONSchema] { [] }
    init() {}
    init(pathSegments: [String]) {}
    var pathSegments: [String] { [] }
}

/// A value that fills one segment of an address: a record's id, a version number, a topic.
protocol PathValue: PathValues {
    static var pathSchema: JSONSchema { get }
    init(pathSegment: String) throws
    var pathSegment: String { get }
}

extension PathValue {
    static var count: Int { 1 }
    static var pathSchemas: [JSONSchema] { [pathSchema] }
    init(pathSegments: [String]) throws { try self.init(pathSegment: pathSegments.first ?? "") }
    var pathSegments: [String] { [pathSegment] }
}

extension PathValue where Self: LosslessStringConvertible {
    init(pathSegment: String) throws {
        guard let value = Self(pathSegment) else {
            throw HTTPError(.badRequest, message: "“\(pathSegment)” in the address is not a \(Self.self).")
        }
        self = value
    }

    var pathSegment: String { description }
}

extension RecordID: PathValue {
    static var pathSchema: JSONSchema { schema }
}

extension Int: PathValue {
    /// Numbers in addresses are version numbers, counted from 1; a number past 64 bits cannot
    /// be one, and the document says so, as it does for ids.
    static var pathSchema: JSONSchema {
        var schema = JSONSchema.of(.integer, format: "int64")
        schema.minimum = 1
        return schema
    }
}

extension String: PathValue {
    static var pathSchema: JSONSchema { .string }
}

extension PayloadKind: PathValue {
    static var pathSchema: JSONSchema { .oneOfStrings(allCases.map(\.rawValue)) }

    /// A kind the console does not know is a page that does not exist.
    init(pathSegment: String) throws {
        guard let kind = PayloadKind(rawValue: pathSegment) else { throw HTTPError(.notFound) }
        self = kind
    }

    var pathSegment: String { rawValue }
}

/// Two values of one address, such as a device and one of its notes; handlers get them apart.
struct PathPair<First: PathValue, Second: PathValue>: PathValues {
    let first: First
    let second: Second

    init(_ first: First, _ second: Second) {
        self.first = first
        self.second = second
    }

    static var count: Int { 2 }
    static var pathSchemas: [JSONSchema] { [First.pathSchema, Second.pathSchema] }

    init(pathSegments: [String]) throws {
        first = try First(pathSegment: pathSegments.first ?? "")
        second = try Second(pathSegment: pathSegments.dropFirst().first ?? "")
    }

    var pathSegments: [String] { [first.pathSegment, second.pathSegment] }
}
