import Foundation

/// One attribute of an element, in the order the document wrote it.
public struct XMLAttribute: Equatable, Sendable {
    public let name: String
    /// The value with references replaced and literal tabs and line breaks turned into spaces,
    /// as XML 1.0 requires of every reader.
    public let value: String

    public init(name: String, value: String) {
        self.name = name
        self.value = value
    }
}

/// An element read by `XMLReader`.
///
/// Not called `XMLElement` because Foundation on Apple platforms already has a class of that
/// name, and a module that imports both would find the name ambiguous.
public struct ParsedXMLElement: Equatable, Sendable {
    public let name: String
    public let attributes: [XMLAttribute]
    public let children: [ParsedXMLElement]
    /// The character data directly inside this element (text and CDATA, references replaced),
    /// concatenated in document order; text inside child elements is not included.
    public let text: String
    /// The 1-based line of the element's start tag, so importers can say where a value that
    /// is well-formed but wrong was written.
    public let line: Int

    public init(
        name: String, attributes: [XMLAttribute] = [], children: [ParsedXMLElement] = [],
        text: String = "", line: Int = 1
    ) {
        self.name = name
        self.attributes = attributes
        self.children = children
        self.text = text
        self.line = line
    }

    /// The value of the attribute called `name`, or nil when the element has none.
    public func attribute(_ name: String) -> String? {
        attributes.first { $0.name == name }?.value
    }

    /// The first child element called `name`.
    public func child(named name: String) -> ParsedXMLElement? {
        children.first { $0.name == name }
    }

    /// Every child element called `name`, in document order.
    public func children(named name: String) -> [ParsedXMLElement] {
        children.filter { $0.name == name }
    }

    /// `text` without the surrounding whitespace and line breaks that indentation leaves.
    public var trimmedText: String {
        text.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// True when the element's own text is only whitespace (or empty).
    public var hasOnlyWhitespaceText: Bool {
        text.utf8.allSatisfy(XMLSource.isWhitespace)
    }
}
