// One-pass lexer plus a statement splitter; the declarator heuristics are described in the .hpp.
#include "doca_headers/header_scanner.hpp"

#include "os/huge_pages.hpp"

#include <array>
#include <cstdint>
#include <cstring>
#include <optional>

namespace rdmi {
namespace {

enum class TokenKind : std::uint8_t { ident, string, number, punct };

// What an identifier is to the declaration analysis, decided once when it is lexed: comparing
// every identifier of a 100,000-declaration header with some forty keywords took a tenth of
// the scan.
enum class Word : std::uint8_t {
    plain,
    type,        // may precede a parenthesised declarator or group but never names a function
    attribute,   // followed by a parenthesised group that is not a declarator
    not_export,  // typedef, static, using: the statement declares nothing exported
    extern_,
    annotation,  // a DOCA stability macro
};

struct SpecialWord {
    std::string_view spelling;
    Word word;
    Annotation annotation = Annotation::none;
};

constexpr std::array kSpecialWords{
    SpecialWord{"DOCA_EXPERIMENTAL", Word::annotation, Annotation::experimental},
    SpecialWord{"__DOCA_EXPERIMENTAL", Word::annotation,
                Annotation::experimental},  // DOCA 1.x spelling
    SpecialWord{"DOCA_STABLE", Word::annotation, Annotation::stable},
    SpecialWord{"DOCA_DEPRECATED", Word::annotation, Annotation::deprecated},
    SpecialWord{"typedef", Word::not_export},
    SpecialWord{"static", Word::not_export},
    SpecialWord{"using", Word::not_export},
    SpecialWord{"extern", Word::extern_},
    SpecialWord{"__attribute__", Word::attribute},
    SpecialWord{"__attribute", Word::attribute},
    SpecialWord{"__declspec", Word::attribute},
    SpecialWord{"__asm__", Word::attribute},
    SpecialWord{"__asm", Word::attribute},
    SpecialWord{"asm", Word::attribute},
    SpecialWord{"_Alignas", Word::attribute},
    SpecialWord{"alignas", Word::attribute},
    SpecialWord{"__typeof__", Word::attribute},
    SpecialWord{"typeof", Word::attribute},
    SpecialWord{"__typeof", Word::attribute},
    SpecialWord{"_Static_assert", Word::attribute},
    SpecialWord{"void", Word::type},
    SpecialWord{"char", Word::type},
    SpecialWord{"short", Word::type},
    SpecialWord{"int", Word::type},
    SpecialWord{"long", Word::type},
    SpecialWord{"float", Word::type},
    SpecialWord{"double", Word::type},
    SpecialWord{"signed", Word::type},
    SpecialWord{"unsigned", Word::type},
    SpecialWord{"_Bool", Word::type},
    SpecialWord{"bool", Word::type},
    SpecialWord{"const", Word::type},
    SpecialWord{"volatile", Word::type},
    SpecialWord{"struct", Word::type},
    SpecialWord{"union", Word::type},
    SpecialWord{"enum", Word::type},
    SpecialWord{"restrict", Word::type},
    SpecialWord{"__restrict", Word::type},
    SpecialWord{"return", Word::type},
    SpecialWord{"sizeof", Word::type},
};
constexpr std::uint8_t kNoSpecial = 0xff;
static_assert(kSpecialWords.size() < kNoSpecial);

// The special words in an open-addressed table keyed by length, first and last byte: an
// identifier costs one probe, almost always of an empty slot (40 words in 512 slots), instead of
// a walk over the words that share its first byte (a tenth of the scan of a large header).
constexpr std::size_t kSpecialSlots = 512;

constexpr std::size_t special_hash(std::size_t size, char first, char last) {
    return (size * 7U + std::size_t{static_cast<unsigned char>(first)} * 3U +
            std::size_t{static_cast<unsigned char>(last)} * 5U) %
           kSpecialSlots;
}

constexpr auto kSpecialTable = [] {
    std::array<std::uint8_t, kSpecialSlots> table{};
    table.fill(kNoSpecial);
    for (std::size_t i = 0; i < kSpecialWords.size(); ++i) {
        const std::string_view word = kSpecialWords[i].spelling;
        std::size_t slot = special_hash(word.size(), word.front(), word.back());
        while (table[slot] != kNoSpecial) slot = (slot + 1) % kSpecialSlots;
        table[slot] = static_cast<std::uint8_t>(i);
    }
    return table;
}();

std::uint8_t special_index(std::string_view word) {
    for (std::size_t slot = special_hash(word.size(), word.front(), word.back());;
         slot = (slot + 1) % kSpecialSlots) {
        const std::uint8_t i = kSpecialTable[slot];
        if (i == kNoSpecial) return kNoSpecial;
        if (kSpecialWords[i].spelling == word) return i;
    }
}

struct Token {
    TokenKind kind;
    std::uint8_t special = kNoSpecial;  // index into kSpecialWords for identifiers
    Word word_ = Word::plain;           // kSpecialWords[special].word, or plain
    char punct = 0;                     // the byte of a punctuation token, 0 for the others
    std::string_view text;
    std::size_t line;

    [[nodiscard]] Word word() const { return word_; }
};

Token make_token(TokenKind kind, std::string_view text, std::size_t line,
                 std::uint8_t special = kNoSpecial) {
    return {kind,
            special,
            special == kNoSpecial ? Word::plain : kSpecialWords[special].word,
            kind == TokenKind::punct ? text[0] : '\0',
            text,
            line};
}

// Byte classes of the lexer, one table lookup per byte.
enum CharClass : std::uint8_t {
    kOther = 0,
    kIdentStart = 1,  // [A-Za-z_$], and the bytes of UTF-8 letters
    kDigit = 2,
    kBlank = 4,  // space, \t, \r (of \r\n; a lone \r ends a line), \f, \v
};

constexpr auto kCharClass = [] {
    std::array<std::uint8_t, 256> table{};
    for (unsigned c = 0; c < 256; ++c) {
        // GCC and Clang take UTF-8 letters in identifiers ("doca_caf\xc3\xa9"); outside
        // comments and literals a byte of 0x80 or above can only be part of one.
        if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' || c == '$' || c >= 0x80) {
            table[c] = kIdentStart;
        } else if (c >= '0' && c <= '9') {
            table[c] = kDigit;
        } else if (c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v') {
            table[c] = kBlank;
        }
    }
    return table;
}();

std::uint8_t char_class(char c) {
    return kCharClass[static_cast<unsigned char>(c)];
}

bool is_ident_start(char c) {
    return char_class(c) == kIdentStart;
}

bool is_ident_char(char c) {
    return (char_class(c) & (kIdentStart | kDigit)) != 0;
}

// The end of the run of identifier bytes that starts at `p`. Identifiers are most of a header's
// bytes: four bytes a step without a bounds check between them.
const char* skip_ident(const char* p, const char* end) {
    while (end - p >= 4) {
        if (!is_ident_char(p[0])) return p;
        if (!is_ident_char(p[1])) return p + 1;
        if (!is_ident_char(p[2])) return p + 2;
        if (!is_ident_char(p[3])) return p + 3;
        p += 4;
    }
    while (p != end && is_ident_char(*p)) ++p;
    return p;
}

// Splits header text into tokens, dropping comments and preprocessor lines.
class Lexer {
  public:
    Lexer(std::string_view text, std::vector<std::string>& notes) : text_(text), notes_(notes) {}

    std::optional<Token> next() {
        while (pos_ < text_.size()) {
            const char c = text_[pos_];
            if (c == '\n' || lone_cr(pos_)) {
                ++line_;
                ++pos_;
                at_line_start_ = true;
            } else if (char_class(c) == kBlank) {
                // Indentation comes in runs: one test a byte, not the whole chain. A carriage
                // return goes back to the chain, which tells a lone one (a line end) apart.
                do {
                    ++pos_;
                } while (pos_ < text_.size() && char_class(text_[pos_]) == kBlank &&
                         text_[pos_] != '\r');
            } else if (c == '/' && peek(1) == '*') {
                skip_block_comment();
            } else if (c == '/' && peek(1) == '/') {
                skip_to_line_end();
            } else if (c == '#' && at_line_start_) {
                skip_directive();
            } else if (c == '\\' && line_end_at(pos_ + 1) != 0) {
                pos_ += 1 + line_end_at(pos_ + 1);
                ++line_;
            } else {
                at_line_start_ = false;
                return token();
            }
        }
        return std::nullopt;
    }

  private:
    // The text from `start` to the current position (within the text by construction: no
    // bounds check, which substr() would make for every token).
    [[nodiscard]] std::string_view span(std::size_t start) const {
        return {text_.data() + start, pos_ - start};
    }

    [[nodiscard]] char peek(std::size_t ahead) const {
        return pos_ + ahead < text_.size() ? text_[pos_ + ahead] : '\0';
    }

    // A carriage return not followed by a newline ends a line, as in GCC and Clang (files with
    // classic Mac line ends): treated as a blank, a whole header would be one line, and its
    // first directive would swallow every declaration.
    [[nodiscard]] bool lone_cr(std::size_t at) const {
        return text_[at] == '\r' && (at + 1 >= text_.size() || text_[at + 1] != '\n');
    }

    // The length of the line end at `at` ("\n", "\r\n" or a lone "\r"); 0 if there is none.
    [[nodiscard]] std::size_t line_end_at(std::size_t at) const {
        if (at >= text_.size()) return 0;
        if (text_[at] == '\n') return 1;
        if (text_[at] != '\r') return 0;
        return at + 1 < text_.size() && text_[at + 1] == '\n' ? 2 : 1;
    }

    // Only '*' and line ends matter inside a comment: the loop stops at nothing else.
    void skip_block_comment() {
        const std::size_t start_line = line_;
        const char* p = text_.data() + pos_ + 2;
        const char* const end = text_.data() + text_.size();
        while (p != end) {
            if (*p == '*') {
                if (end - p >= 2 && p[1] == '/') {
                    pos_ = static_cast<std::size_t>(p + 2 - text_.data());
                    return;
                }
            } else if (*p == '\n' || (*p == '\r' && (end - p < 2 || p[1] != '\n'))) {
                ++line_;  // a newline or a lone carriage return (lone_cr())
            }
            ++p;
        }
        pos_ = text_.size();
        notes_.push_back("line " + std::to_string(start_line) + ": unterminated comment");
    }

    void skip_to_line_end() {
        while (pos_ < text_.size() && text_[pos_] != '\n' && !lone_cr(pos_)) ++pos_;
    }

    // A directive runs to the first newline not escaped by a backslash; comments inside it may
    // span lines.
    void skip_directive() {
        while (pos_ < text_.size()) {
            const char c = text_[pos_];
            if (c == '\n' || lone_cr(pos_)) return;
            if (c == '\\' && line_end_at(pos_ + 1) != 0) {
                pos_ += 1 + line_end_at(pos_ + 1);
                ++line_;
            } else if (c == '/' && peek(1) == '*') {
                skip_block_comment();
            } else if (c == '/' && peek(1) == '/') {
                skip_to_line_end();
            } else {
                ++pos_;
            }
        }
    }

    Token token() {
        const std::size_t start = pos_;
        const char c = text_[pos_];
        if (is_ident_start(c)) {
            pos_ = static_cast<std::size_t>(
                skip_ident(text_.data() + pos_ + 1, text_.data() + text_.size()) - text_.data());
            const std::string_view word = span(start);
            return make_token(TokenKind::ident, word, line_, special_index(word));
        }
        if (c >= '0' && c <= '9') {
            while (pos_ < text_.size() && (is_ident_char(text_[pos_]) || text_[pos_] == '.'))
                ++pos_;
            return make_token(TokenKind::number, span(start), line_);
        }
        if (c == '"' || c == '\'') {
            ++pos_;
            while (pos_ < text_.size() && text_[pos_] != c && text_[pos_] != '\n' &&
                   !lone_cr(pos_)) {
                pos_ += text_[pos_] == '\\' && pos_ + 1 < text_.size() ? 2 : 1;
            }
            if (pos_ < text_.size() && text_[pos_] == c) {
                ++pos_;
            } else {
                notes_.push_back("line " + std::to_string(line_) + ": unterminated literal");
            }
            return make_token(TokenKind::string, span(start), line_);
        }
        ++pos_;
        return make_token(TokenKind::punct, std::string_view(text_.data() + start, 1), line_);
    }

    std::string_view text_;
    std::vector<std::string>& notes_;
    std::size_t pos_ = 0;
    std::size_t line_ = 1;
    bool at_line_start_ = true;
};

bool is_macro_spelling(std::string_view word) {
    for (const char c : word) {
        if (c >= 'a' && c <= 'z') return false;
    }
    return true;
}

bool is_punct(const Token& token, char c) {
    return token.punct == c;
}

bool is_word(const Token& token, std::string_view word) {
    return token.kind == TokenKind::ident && token.text == word;
}

// Index just past the parenthesised group opening at `open` (or the end).
std::size_t skip_group(const std::vector<Token>& tokens, std::size_t open) {
    int depth = 0;
    for (std::size_t i = open; i < tokens.size(); ++i) {
        if (is_punct(tokens[i], '(')) {
            ++depth;
        } else if (is_punct(tokens[i], ')') && --depth == 0) {
            return i + 1;
        }
    }
    return tokens.size();
}

// True when no byte of `text` is above 0x7f, eight bytes a step: a lexed identifier is then
// printable ASCII (HeaderDecl::identifier); one with UTF-8 letters is not.
bool ascii_only(std::string_view text) {
    constexpr std::uint64_t kHighBits = 0x8080808080808080U;
    std::uint64_t any = 0;
    std::size_t at = 0;
    for (; at + 8 <= text.size(); at += 8) {
        std::uint64_t word = 0;
        std::memcpy(&word, text.data() + at, sizeof word);
        any |= word;
    }
    for (; at < text.size(); ++at) any |= static_cast<unsigned char>(text[at]);
    return (any & kHighBits) == 0;
}

// Turns one top-level statement (up to `;`) into a declaration, when it is one.
class StatementAnalyzer {
  public:
    StatementAnalyzer(std::string_view file, std::vector<HeaderDecl>& out)
        : file_(file), out_(out) {}

    void analyze(const std::vector<Token>& tokens) const {
        if (tokens.empty()) return;
        Annotation annotation = Annotation::none;
        std::string_view macro;
        bool is_extern = false;
        for (const auto& token : tokens) {
            if (token.kind != TokenKind::ident) continue;
            switch (token.word()) {
                case Word::not_export:
                    return;  // typedefs declare no object; static ones are not exported
                case Word::extern_:
                    is_extern = true;
                    break;
                case Word::annotation:
                    if (annotation == Annotation::none) {
                        annotation = kSpecialWords[token.special].annotation;
                        macro = kSpecialWords[token.special].spelling;
                    }
                    break;
                default:
                    break;
            }
        }
        const Token* name = nullptr;
        DeclKind kind = DeclKind::function;
        find_declarator(tokens, name, kind);
        if (name == nullptr) return;
        if (kind == DeclKind::data && !is_extern && annotation == Annotation::none)
            return;  // a tentative definition or a stray expression, not an extern declaration
        out_.push_back(HeaderDecl{name->text, kind, annotation, macro, file_, name->line,
                                  ascii_only(name->text)});
    }

  private:
    static void find_declarator(const std::vector<Token>& tokens, const Token*& name,
                                DeclKind& kind) {
        const Token* function = nullptr;
        const Token* macro_like = nullptr;
        const Token* pointer = nullptr;
        const Token* last_plain = nullptr;
        bool data_cut = false;
        for (std::size_t i = 0; i < tokens.size();) {
            const Token& token = tokens[i];
            const bool opens = i + 1 < tokens.size() && is_punct(tokens[i + 1], '(');
            if (token.kind == TokenKind::ident && opens && token.word() == Word::attribute) {
                i = skip_group(tokens, i + 1);
                continue;
            }
            if (is_punct(token, '(')) {
                // "(*name)" or "(^name)": a pointer declarator, e.g. a function-pointer variable.
                if (i + 1 < tokens.size() &&
                    (is_punct(tokens[i + 1], '*') || is_punct(tokens[i + 1], '^')) &&
                    pointer == nullptr) {
                    for (std::size_t j = i + 1; j < tokens.size() && !is_punct(tokens[j], ')');
                         ++j) {
                        if (tokens[j].kind == TokenKind::ident && tokens[j].word() != Word::type)
                            pointer = &tokens[j];
                    }
                }
                i = skip_group(tokens, i);
                continue;
            }
            if (token.kind == TokenKind::ident && opens && token.word() != Word::type &&
                !data_cut) {
                if (is_macro_spelling(token.text)) {
                    macro_like = &token;
                } else {
                    function = &token;
                }
                i = skip_group(tokens, i + 1);
                continue;
            }
            if (is_punct(token, '=') || is_punct(token, '[') || is_punct(token, ':') ||
                is_punct(token, ','))
                data_cut = true;
            if (!data_cut && token.kind == TokenKind::ident && token.word() != Word::type &&
                token.word() != Word::annotation && token.word() != Word::extern_)
                last_plain = &token;
            ++i;
        }
        if (pointer != nullptr && function == nullptr) {
            name = pointer;
            kind = DeclKind::data;
        } else if (function != nullptr || macro_like != nullptr) {
            name = function != nullptr ? function : macro_like;
            kind = DeclKind::function;
        } else if (last_plain != nullptr) {
            name = last_plain;
            kind = DeclKind::data;
        }
    }

    std::string_view file_;
    std::vector<HeaderDecl>& out_;
};

// What a `{` opened, so its `}` knows what to do with the statement around it.
enum class Brace : std::uint8_t {
    transparent,  // extern "C" / namespace: declarations inside count as top level
    body,         // a function body: the statement ends with it
    inner,        // struct/enum/union body or initializer: the statement continues after it
};

}  // namespace

std::string_view to_string(Annotation annotation) {
    switch (annotation) {
        case Annotation::experimental:
            return "experimental";
        case Annotation::stable:
            return "stable";
        case Annotation::deprecated:
            return "deprecated";
        case Annotation::none:
            break;
    }
    return "none";
}

std::string_view to_string(DeclKind kind) {
    return kind == DeclKind::function ? "function" : "data";
}

HeaderScan scan_header(std::string_view text, std::string_view file_name) {
    HeaderScan scan;
    // A declaration takes at least this many bytes of text: growing a vector of 100k
    // declarations by doubling would hold both copies at the end.
    constexpr std::size_t kMinDeclBytes = 64;
    scan.decls.reserve(text.size() / kMinDeclBytes);
    advise_huge_pages(scan.decls);
    Lexer lexer(text, scan.notes);
    const StatementAnalyzer analyzer(file_name, scan.decls);
    std::vector<Brace> braces;
    std::size_t opaque_depth = 0;  // braces open that are not transparent
    std::vector<Token> statement;
    int paren_depth = 0;

    while (auto token = lexer.next()) {
        const bool open_brace = is_punct(*token, '{');
        const bool close_brace = is_punct(*token, '}');
        if (opaque_depth > 0) {
            if (open_brace) {
                braces.push_back(Brace::inner);
                ++opaque_depth;
            } else if (close_brace) {
                const Brace closed = braces.back();
                braces.pop_back();
                --opaque_depth;
                if (opaque_depth == 0 && closed == Brace::body) {
                    statement.clear();
                    paren_depth = 0;
                }
            }
            continue;
        }
        if (open_brace) {
            bool has_group = false;
            bool has_assign = false;
            for (const auto& t : statement) {
                has_group = has_group || is_punct(t, '(');
                has_assign = has_assign || is_punct(t, '=');
            }
            const bool extern_c = statement.size() == 2 && is_word(statement[0], "extern") &&
                                  statement[1].kind == TokenKind::string;
            const bool name_space = !statement.empty() && is_word(statement[0], "namespace");
            if (extern_c || name_space) {
                braces.push_back(Brace::transparent);
                statement.clear();
            } else {
                braces.push_back(has_group && !has_assign ? Brace::body : Brace::inner);
                ++opaque_depth;
            }
            continue;
        }
        if (close_brace) {
            if (braces.empty()) {
                scan.notes.push_back("line " + std::to_string(token->line) + ": unbalanced '}'");
            } else {
                braces.pop_back();
            }
            statement.clear();
            paren_depth = 0;
            continue;
        }
        if (is_punct(*token, '(')) {
            ++paren_depth;
        } else if (is_punct(*token, ')') && paren_depth > 0) {
            --paren_depth;
        }
        if (is_punct(*token, ';') && paren_depth == 0) {
            analyzer.analyze(statement);
            statement.clear();
            continue;
        }
        statement.push_back(*token);
    }
    if (!braces.empty()) {
        scan.notes.push_back("end of file inside " + std::to_string(braces.size()) +
                             " unclosed '{'");
    }
    return scan;
}

}  // namespace rdmi
