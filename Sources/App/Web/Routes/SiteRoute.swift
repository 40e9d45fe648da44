import Domain
import Foundation
import HTTPTypes
import Hummingbird

/// One page or form action of the console, declared once: its method, its address, who may use
/// it and the type of the values its address carries. The controller registers its handler
/// from it (`SecuredRoutes.on`), which hands the handler those values already read; views and
/// redirects make their links from it (`link`). So an address is typed in one place, a handler
/// cannot read a value its pattern lacks, and a link cannot leave one out.
///
/// The console's routes are declared by feature as `Site.Devices.show`, `Site.Profiles.history`…
/// (see `Site`), the way SwiftPackageIndex-Server's `SiteURL` does.
struct SiteRoute<Values: PathValues>: Sendable, Addressed {
    let method: HTTPRequest.Method
    let template: PathTemplate<Values>
    let role: Role

    init(_ method: HTTPRequest.Method, _ pattern: String, role: Role) {
        self.method = method
        template = PathTemplate(pattern)
        self.role = role
    }
}

/// A declaration with an address: a page (`SiteRoute`) or an API operation (`Endpoint`). Both
/// make their links, and read a request's values, through their one `PathTemplate`.
protocol Addressed {
    associatedtype Values: PathValues
    var template: PathTemplate<Values> { get }
}

extension Addressed {
    /// The address with a `{name}` segment for each value, as the router matches it.
    var pattern: String { template.pattern }

    /// The address for `values`, each segment percent-encoded.
    func link(_ values: Values) -> String { template.link(values) }

    /// The address of a declaration whose address carries two values.
    func link<First, Second>(_ first: First, _ second: Second) -> String where Values == PathPair<First, Second> {
        template.link(PathPair(first, second))
    }

    /// The values a matched request's address carries; a segment its type cannot read is the
    /// client's mistake (400, or 404 for a type that says so).
    func values(in parameters: Parameters) throws -> Values { try template.values(in: parameters) }
}

extension Addressed where Values == NoValues {
    /// The address of a declaration whose address carries no values.
    func link() -> String { pattern }

    /// The address with a query string; parameters whose value is nil are left out.
    func link(query: KeyValuePairs<String, String?>) -> String {
        let parts = query.compactMap { name, value in value.map { name + "=" + QueryValue.encoded($0) } }
        return parts.isEmpty ? pattern : pattern + "?" + parts.joined(separator: "&")
    }
}

/// An address pattern (`/devices/{id}/notes/{note}`) and the type of the values it carries.
struct PathTemplate<Values: PathValues>: Sendable {
    let pattern: String
    /// The names of the pattern's `{name}` segments, in order.
    let names: [String]
    /// The pattern's segments, nil where a value goes: split once, since pages make many links.
    private let segments: [String?]

    init(_ pattern: String) {
        segments = pattern.split(separator: "/").map { $0.first == "{" ? nil : String($0) }
        names = pattern.split(separator: "/").filter { $0.first == "{" }.map { String($0.dropFirst().dropLast()) }
        // A declaration whose pattern and values disagree is a mistake in the code, found the first
        // time the route table is built (every test console builds it), never by a request.
        precondition(names.count == Values.count, "\(pattern) has \(names.count) values where its declaration has \(Values.count)")
        self.pattern = pattern
    }

    func link(_ values: Values) -> String {
        var filling = values.pathSegments.makeIterator()
        var link = ""
        for segment in segments {
            link += "/"
            link += segment ?? PathSegment.encoded(filling.next() ?? "")
        }
        return link
    }

    func values(in parameters: Parameters) throws -> Values {
        try Values(pathSegments: names.map { parameters.get($0) ?? "" })
    }
}

/// Encodes a value as one segment of an address.
enum PathSegment {
    private static let allowed: CharacterSet = {
        var allowed = CharacterSet.urlPathAllowed
        allowed.remove("/")
        return allowed
    }()

    static func encoded(_ segment: String) -> String {
        // Ids, version numbers and payload kinds need no escaping; most links carry only those,
        // and a page of rows makes hundreds of links.
        if segment.utf8.allSatisfy({ $0.isASCIIUnreserved }) { return segment }
        return segment.addingPercentEncoding(withAllowedCharacters: allowed) ?? segment
    }
}

private extension UInt8 {
    var isASCIIUnreserved: Bool {
        (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(self) || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(self)
            || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(self) || self == UInt8(ascii: "-") || self == UInt8(ascii: ".")
            || self == UInt8(ascii: "_") || self == UInt8(ascii: "~")
    }
}

/// Encodes a query-string value as the links the console writes do (every character but
/// letters and digits escaped, so `&`, `=`, `+` and spaces in an app name or a search survive).
enum QueryValue {
    static func encoded(_ value: String) -> String {
        value.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? ""
    }
}

/// A route open to everyone (signing in, health checks, the API document): its handler gets
/// the request's own context, with no signed-in user assumed.
struct OpenRoute: Sendable {
    let method: HTTPRequest.Method
    let path: String

    init(_ method: HTTPRequest.Method, _ path: String) {
        self.method = method
        self.path = path
    }

    func link() -> String { path }
}
