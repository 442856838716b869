/// Turns a document's events (element opened, text, element closed) into `XMLTreeElement`s,
/// keeping the open elements on a stack rather than the call stack.
struct XMLTreeBuilder {
    private struct Open {
        var name: String
        var attributes: [String: String]
        var text = ""
        var children: [XMLTreeElement] = []
    }

    private var stack: [Open] = []
    /// The document element, once it has closed.
    private(set) var root: XMLTreeElement?

    /// How many elements are open.
    var depth: Int { stack.count }

    mutating func open(_ name: String, attributes: [String: String]) {
        stack.append(Open(name: name, attributes: attributes))
    }

    mutating func append(text: String) {
        guard !stack.isEmpty else { return }
        stack[stack.count - 1].text += text
    }

    mutating func close() {
        guard let open = stack.popLast() else { return }
        let element = XMLTreeElement(name: open.name, text: open.text.trimmingCharacters(in: .whitespacesAndNewlines),
                                     attributes: open.attributes, children: open.children)
        if stack.isEmpty {
            root = element
        } else {
            stack[stack.count - 1].children.append(element)
        }
    }
}
