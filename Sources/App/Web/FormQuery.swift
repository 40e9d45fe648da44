import Foundation
import Hummingbird
import HummingbirdCore

extension URI {
    /// The query string's parameters as an HTML form sends them (`application/x-www-form-urlencoded`):
    /// `+` is a space, as in every GET form a browser submits and in the query strings scripts'
    /// HTTP libraries build. Hummingbird's `queryParameters` reads `+` as a plus sign, so a
    /// search for "battery low" typed into a form would look for "battery+low". A value that
    /// is not valid percent-encoding is kept as sent, for the strict readers to refuse.
    var formParameters: Parameters {
        var parameters = Parameters()
        guard let query, !query.isEmpty else { return parameters }
        for pair in query.split(separator: "&") {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let value = parts.count > 1 ? Self.formDecoded(parts[1]) : ""
            parameters.append(key: Substring(Self.formDecoded(parts[0])), value: Substring(value))
        }
        return parameters
    }

    private static func formDecoded(_ text: Substring) -> String {
        let spaced = text.replacingOccurrences(of: "+", with: " ")
        return spaced.removingPercentEncoding ?? spaced
    }
}
