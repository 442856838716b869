import CYaml
import Foundation

/// Finds the first mapping key that repeats an earlier key of the same mapping, with the line
/// of both, by walking libyaml's events (Yams reports only the first occurrence's position).
enum DuplicateKeyFinder {
    struct Duplicate: Equatable {
        let key: String
        let line: Int
        let column: Int
        let firstLine: Int
    }

    /// One open mapping or sequence.
    private struct Frame {
        let isMapping: Bool
        var expectingKey = true
        var seen: [String: Int] = [:]
    }

    /// The first repeated key in `text` among `keys`, or nil when there is none (or the text
    /// does not parse).
    static func first(in text: String, among keys: Set<String>) -> Duplicate? {
        guard !text.isEmpty else { return nil }
        var parser = yaml_parser_t()
        guard yaml_parser_initialize(&parser) == 1 else { return nil }
        defer { yaml_parser_delete(&parser) }
        let bytes = Array(text.utf8)
        return bytes.withUnsafeBufferPointer { buffer in
            yaml_parser_set_input_string(&parser, buffer.baseAddress, buffer.count)
            var stack: [Frame] = []
            /// Marks a key or value of the innermost mapping as read.
            func completed() {
                guard let last = stack.indices.last, stack[last].isMapping else { return }
                stack[last].expectingKey.toggle()
            }
            while true {
                var event = yaml_event_t()
                guard yaml_parser_parse(&parser, &event) == 1 else { return nil }
                defer { yaml_event_delete(&event) }
                switch event.type {
                case YAML_STREAM_END_EVENT:
                    return nil
                case YAML_MAPPING_START_EVENT, YAML_SEQUENCE_START_EVENT:
                    stack.append(Frame(isMapping: event.type == YAML_MAPPING_START_EVENT))
                case YAML_MAPPING_END_EVENT, YAML_SEQUENCE_END_EVENT:
                    _ = stack.popLast()
                    completed()
                case YAML_SCALAR_EVENT:
                    if let last = stack.indices.last, stack[last].isMapping, stack[last].expectingKey {
                        let scalar = event.data.scalar
                        let key = String(decoding: UnsafeBufferPointer(start: scalar.value, count: scalar.length),
                                         as: UTF8.self)
                        let line = Int(event.start_mark.line) + 1
                        if let firstLine = stack[last].seen[key], keys.contains(key) {
                            return Duplicate(key: key, line: line, column: Int(event.start_mark.column) + 1,
                                             firstLine: firstLine)
                        }
                        stack[last].seen[key] = line
                    }
                    completed()
                case YAML_ALIAS_EVENT:
                    completed()
                default:
                    break
                }
            }
        }
    }
}
