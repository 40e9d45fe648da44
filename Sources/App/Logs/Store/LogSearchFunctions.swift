import Domain
import Storage

/// The log search as SQL functions, for lines the full-text index has not reached yet:
/// `log_search_match(search, message)` is 1 when FTS5 would match the message and
/// `log_search_highlight(search, message)` marks its matched words as FTS5's `highlight` does;
/// `search` is the text a person typed (`LogFilter.searchText`). Registered on every
/// connection to the log store's file.
enum LogSearchFunctions {
    static let match = "log_search_match"
    static let highlight = "log_search_highlight"

    static let all: [TextFunction] = [
        TextFunction(name: match, compile: { try? LogSearch($0).matcher() }) { matcher, message in
            .integer(matcher.matches(utf8: message) ? 1 : 0)
        },
        TextFunction(name: highlight, compile: { try? LogSearch($0).matcher() }) { matcher, message in
            .text(matcher.highlighted(String(decoding: message, as: UTF8.self)))
        },
    ]
}
