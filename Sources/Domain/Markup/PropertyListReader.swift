import Foundation

/// Reads an XML property list (a `.mobileconfig`, a managed preferences file) into a
/// `PropertyList`, through `XMLReader` and so with its protection against entity attacks.
public enum PropertyListReader {
    /// True for Apple's binary format ("bplist00", and the rarer later versions), so callers
    /// can say it is not supported instead of reporting an XML error on line 1.
    public static func isBinaryPlist(_ data: Data) -> Bool {
        data.starts(with: Array("bplist".utf8))
    }

    /// Reads uploaded bytes, which must be an XML property list in UTF-8.
    public static func read(_ data: Data, limits: XMLReader.Limits = XMLReader.Limits()) throws(PropertyListProblem) -> PropertyList {
        if isBinaryPlist(data) {
            throw PropertyListProblem(
                line: 1, reason: "binary property lists are not supported; convert it with plutil -convert xml1")
        }
        guard let text = String(validating: data, as: UTF8.self) else {
            throw PropertyListProblem(line: 1, reason: "the file is not UTF-8 text")
        }
        return try read(text, limits: limits)
    }

    public static func read(_ text: String, limits: XMLReader.Limits = XMLReader.Limits()) throws(PropertyListProblem) -> PropertyList {
        let root: ParsedXMLElement
        do {
            root = try XMLReader.parse(text, limits: limits)
        } catch {
            throw PropertyListProblem(error)
        }
        return try document(root)
    }

    /// `<plist version="1.0">` holding exactly one value.
    static func document(_ root: ParsedXMLElement) throws(PropertyListProblem) -> PropertyList {
        guard root.name == "plist" else {
            throw PropertyListProblem(line: root.line, reason: "expected <plist> as the root element, found <\(root.name)>")
        }
        try requireNoText(in: root)
        guard let only = root.children.first else {
            throw PropertyListProblem(line: root.line, reason: "<plist> is empty; it must hold one value")
        }
        guard root.children.count == 1 else {
            throw PropertyListProblem(line: root.children[1].line, reason: "<plist> must hold exactly one value")
        }
        return try value(of: only)
    }

    /// Recursion here is bounded by `XMLReader.Limits.maximumDepth`, which the tree obeys.
    static func value(of element: ParsedXMLElement) throws(PropertyListProblem) -> PropertyList {
        switch element.name {
        case "dict":
            return try dictionary(element)
        case "array":
            try requireNoText(in: element)
            var items: [PropertyList] = []
            items.reserveCapacity(element.children.count)
            for child in element.children { items.append(try value(of: child)) }
            return .array(items)
        case "string":
            return .string(try leafText(of: element))
        case "integer":
            return .integer(try PropertyListScalars.integer(try leafText(of: element), line: element.line))
        case "real":
            return .real(try PropertyListScalars.real(try leafText(of: element), line: element.line))
        case "true", "false":
            guard try leafText(of: element).isEmpty else {
                throw PropertyListProblem(line: element.line, reason: "<\(element.name)/> must be empty")
            }
            return .boolean(element.name == "true")
        case "date":
            return .date(try PropertyListScalars.date(try leafText(of: element), line: element.line))
        case "data":
            return .data(try PropertyListScalars.base64(try leafText(of: element), line: element.line))
        case "key":
            throw PropertyListProblem(line: element.line, reason: "<key> is only allowed directly inside <dict>")
        case "plist":
            throw PropertyListProblem(line: element.line, reason: "<plist> is only allowed as the root element")
        default:
            throw PropertyListProblem(line: element.line, reason: "unknown property list element <\(element.name)>")
        }
    }

    /// `<key>` and value elements in turn; keys must be unique.
    private static func dictionary(_ element: ParsedXMLElement) throws(PropertyListProblem) -> PropertyList {
        try requireNoText(in: element)
        var entries: [(String, PropertyList)] = []
        var keys: Set<String> = []
        var pendingKey: (name: String, line: Int)?
        for child in element.children {
            if child.name == "key" {
                if let pendingKey {
                    throw PropertyListProblem(line: pendingKey.line, reason: "the key \"\(pendingKey.name)\" has no value")
                }
                let name = try leafText(of: child)
                guard keys.insert(name).inserted else {
                    throw PropertyListProblem(line: child.line, reason: "the key \"\(name)\" appears twice in this dictionary")
                }
                pendingKey = (name, child.line)
            } else {
                guard let key = pendingKey else {
                    throw PropertyListProblem(line: child.line, reason: "<\(child.name)> in a dictionary needs a <key> before it")
                }
                entries.append((key.name, try value(of: child)))
                pendingKey = nil
            }
        }
        if let pendingKey {
            throw PropertyListProblem(line: pendingKey.line, reason: "the key \"\(pendingKey.name)\" has no value")
        }
        return .dictionary(entries)
    }

    /// The text of an element that may not contain other elements.
    private static func leafText(of element: ParsedXMLElement) throws(PropertyListProblem) -> String {
        if let child = element.children.first {
            throw PropertyListProblem(line: child.line, reason: "<\(element.name)> cannot contain <\(child.name)>")
        }
        return element.text
    }

    /// Containers may hold whitespace for indentation, nothing else.
    private static func requireNoText(in element: ParsedXMLElement) throws(PropertyListProblem) {
        guard element.hasOnlyWhitespaceText else {
            throw PropertyListProblem(line: element.line, reason: "text is not allowed directly inside <\(element.name)>")
        }
    }
}
