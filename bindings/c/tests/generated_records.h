/* Generated registration records for the batch and Arrow tests: a deterministic xorshift generator
   and pools of values that make every rule of examples/registration.json pass and fail. Test
   support, not part of the library. */
#ifndef FORMWELL_TEST_GENERATED_RECORDS_H
#define FORMWELL_TEST_GENERATED_RECORDS_H

#include <stdint.h>
#include <stdlib.h>

#define RECORD_FIELDS 5 /* name, email, username, password, confirm */

static uint32_t rng_state = 0x2545F491u;
static uint32_t next_random(void) {
    rng_state ^= rng_state << 13;
    rng_state ^= rng_state >> 17;
    rng_state ^= rng_state << 5;
    return rng_state;
}

static const char *const name_pool[] = {"", "Ada", "Grace Hopper", "Zo\xc3\xab", " ", "\xe5\x90\x8d\xe5\x89\x8d"};
static const char *const email_pool[] = {"", "ada@example.com", "ada@", "not an email", "x@y.co",
                                         "grace.hopper@navy.mil", "a b@c.d", "\xc3\xa9@x.de"};
static const char *const username_pool[] = {"", "ab", "ada_l", "ADA", "a_very_long_username_indeed", "ada lovelace",
                                            "user123", "\xc3\xbcn\xc3\xaf", "abc", "twenty_chars_exactly"};
static const char *const password_pool[] = {"", "short", "longpassword", "Longpassword", "Longpassw0rd",
                                            "P\xc3\xa4ssw0rd\xc3\x84", "Abcdefg1", "1234567A", "Abc1",
                                            "A much longer passphrase 42"};
#define POOL(p) (sizeof p / sizeof p[0])

/* records x RECORD_FIELDS values, record-major (free() them); with `nulls`, about one value in seven
   is NULL, a null (validity bit clear). The confirmation mostly repeats the password. */
static const char **generate(size_t records, int nulls) {
    const char **values = malloc((records > 0 ? records : 1) * RECORD_FIELDS * sizeof *values);
    size_t r;
    if (!values) abort();
    for (r = 0; r < records; r++) {
        const char **row = values + r * RECORD_FIELDS;
        row[0] = name_pool[next_random() % POOL(name_pool)];
        row[1] = email_pool[next_random() % POOL(email_pool)];
        row[2] = username_pool[next_random() % POOL(username_pool)];
        row[3] = password_pool[next_random() % POOL(password_pool)];
        switch (next_random() % 4) {
        case 0: case 1: row[4] = row[3]; break;
        case 2: row[4] = password_pool[next_random() % POOL(password_pool)]; break;
        default: row[4] = ""; break;
        }
        if (nulls) {
            int f;
            for (f = 0; f < RECORD_FIELDS; f++) if (next_random() % 7 == 0) row[f] = NULL;
        }
    }
    return values;
}

#endif
