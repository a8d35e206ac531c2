// Tests for the documents the interrupt handlers prepare: made from one error document's pieces,
// they must be error_document()'s bytes for every signal. Handlers are installed in a forked
// child only, so the test runner keeps its own.
#include "cli/interrupt.hpp"

#include <doctest/doctest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <string>

#include "cli/error_document.hpp"
#include "os/child_groups.hpp"
#include "support/child_output.hpp"

namespace rdmi::cli {

TEST_CASE("the error document's pieces give error_document()'s bytes") {
    const ErrorDocumentPieces pieces;
    for (const int code : {0, 2, 130, 143, 128 + 64, -1}) {
        CHECK(pieces.document("interrupted by SIGRTMIN+3", code) ==
              error_document("interrupted by SIGRTMIN+3", code));
    }
    CHECK(pieces.document("", 2) == error_document("", 2));
    CHECK(pieces.head().find("\"message\": \"") != std::string::npos);
    CHECK(pieces.tail().back() == '\n');
}

TEST_CASE("a message JSON must escape is written by error_document() itself") {
    const ErrorDocumentPieces pieces;
    for (const std::string& message :
         {std::string("a \"quoted\" name"), std::string("back\\slash"), std::string("line\nfeed"),
          std::string("del\x7f"), std::string("caf\xc3\xa9"), std::string("bad \xff byte")}) {
        CAPTURE(message);
        CHECK_FALSE(ErrorDocumentPieces::splice_safe(message));
        CHECK(pieces.document(message, 2) == error_document(message, 2));
    }
    CHECK(ErrorDocumentPieces::splice_safe("interrupted by SIGINT"));
}

TEST_CASE("every interrupt signal's prepared document is error_document()'s") {
    // The child exits with the number of signals whose document differs (0: none), or 100 when
    // no signal was prepared at all.
    const int mismatches = test::exit_status_in_child([] {
        install_interrupt_handlers(true);
        int prepared = 0;
        int wrong = 0;
        for_each_interrupt_signal([&prepared, &wrong](int sig) {
            const std::string_view document = interrupt_document(sig);
            ++prepared;
            if (document != error_document(interrupt_message(sig), 128 + sig)) ++wrong;
        });
        return prepared == 0 ? 100 : wrong;
    });
    CHECK(mismatches == 0);
}

TEST_CASE("without --json no document is prepared") {
    const int prepared = test::exit_status_in_child([] {
        install_interrupt_handlers(false);
        int with_document = 0;
        for_each_interrupt_signal([&with_document](int sig) {
            if (!interrupt_document(sig).empty()) ++with_document;
        });
        return with_document;
    });
    CHECK(prepared == 0);
}

TEST_CASE("a signal writes its prepared document and exits 128 + N") {
    for (const int sig : {SIGTERM, SIGRTMIN + 3}) {
        CAPTURE(sig);
        const auto r = test::run_in_child([sig] {
            reset_output_owner();
            install_interrupt_handlers(true);
            ::raise(sig);
        });
        REQUIRE(WIFEXITED(r.status));
        CHECK(WEXITSTATUS(r.status) == 128 + sig);
        const std::string message =
            sig == SIGTERM ? "interrupted by SIGTERM" : "interrupted by SIGRTMIN+3";
        CHECK(r.out == error_document(message, 128 + sig));
        CHECK(r.err == "rdmi-probe: " + message + "\n");
    }
}

}  // namespace rdmi::cli
