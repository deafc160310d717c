-- formwell: the LuaJIT binding of libformwell (through LuaJIT's ffi; no C module to build).
--
--   local formwell = require("formwell")
--   local form = formwell.Form()
--   form:add_field("email", { formwell.required(), formwell.email() }, { label = "Email" })
--   form:focus("email")
--   form:set("email", "ada@")
--   print(form:state("email").message)        --> Invalid email format
--
-- The C declarations are read at load time from the GENERATED include/formwell_ffi.h (never a copy):
-- $FORMWELL_FFI_HEADER, else formwell_ffi.h beside this file (installed copies carry one), else
-- ../../include/formwell_ffi.h from this file (the repository), else /usr/local/include or /usr/include.
-- The library: $FORMWELL_LIBRARY, else ../../.build/release/libformwell.so from this file (the
-- repository's build), else ../../../lib/libformwell.so.0 (an installed prefix: `make install`, the
-- tarball), else the system loader's libformwell.so.0 (the Debian packages).
--
-- Indexes are 1-based, as Lua arrays: a field's index, and failing_rule (the position, in the rules
-- given to add_field or listed in the spec, of the rule whose message the field shows).
-- Failures raise a Lua error: a formwell error object (fields status, code, detail, call, offset;
-- tostring gives "FW_ERR_UNKNOWN_FIELD: no field with id 'x'"), or, when a Lua custom validator
-- raised, that validator's own error value. docs/lua.md has the whole contract.

local ffi = require("ffi")
local jit = require("jit")
local bit = require("bit")

local tonumber, tostring, type, error, pcall, setmetatable = tonumber, tostring, type, error, pcall, setmetatable
local find, ffi_string, ffi_new = string.find, ffi.string, ffi.new

local formwell = {}

-- ---- loading ---------------------------------------------------------------------------------

local function module_dir()
  local source = debug.getinfo(1, "S").source
  if source:sub(1, 1) == "@" then return source:sub(2):match("^(.*)[/\\]") or "." end
  return "."
end
local DIR = module_dir()

local function readable(path)
  local file = io.open(path, "rb")
  if file then file:close() end
  return file ~= nil
end

local function read_header()
  local explicit = os.getenv("FORMWELL_FFI_HEADER")
  local candidates = explicit and explicit ~= "" and { explicit }
    or { DIR .. "/formwell_ffi.h", DIR .. "/../../include/formwell_ffi.h",
         "/usr/local/include/formwell_ffi.h", "/usr/include/formwell_ffi.h" }
  for _, path in ipairs(candidates) do
    local file = io.open(path, "rb")
    if file then
      local text = file:read("*a")
      file:close()
      return text, path
    end
  end
  error("formwell: cannot read formwell_ffi.h (tried " .. table.concat(candidates, ", ")
    .. "; set FORMWELL_FFI_HEADER)", 0)
end

local HEADER, HEADER_PATH = read_header()
ffi.cdef(HEADER)

local function load_library()
  local explicit = os.getenv("FORMWELL_LIBRARY")
  if explicit and explicit ~= "" then return ffi.load(explicit), explicit end
  local built = DIR .. "/../../.build/release/libformwell.so"
  if readable(built) then return ffi.load(built), built end
  -- Installed under a prefix (make install, the tarball): PREFIX/share/lua/5.1 -> PREFIX/lib.
  local installed = DIR .. "/../../../lib/libformwell.so.0"
  if readable(installed) then return ffi.load(installed), installed end
  return ffi.load("libformwell.so.0"), "libformwell.so.0"
end

local lib, LIBRARY_PATH = load_library()
if tonumber(lib.fw_abi_version()) ~= tonumber(lib.FW_ABI_VERSION) then
  error(("formwell: %s has ABI %d but %s declares ABI %d"):format(LIBRARY_PATH,
    tonumber(lib.fw_abi_version()), HEADER_PATH, tonumber(lib.FW_ABI_VERSION)), 0)
end

formwell.lib = lib                 -- the raw ffi namespace (every fw_ function of the header)
-- The library's size limits (the header's fw_limit): past one, a call raises FW_ERR_INVALID_ARGUMENT
-- (FW_ERR_INVALID_SPEC for a spec) with a detail naming the limit.
formwell.limits = {
  FIELDS_PER_FORM = tonumber(lib.FW_LIMIT_FIELDS_PER_FORM),
  RULES_PER_FIELD = tonumber(lib.FW_LIMIT_RULES_PER_FIELD),
  RULES_PER_SPEC = tonumber(lib.FW_LIMIT_RULES_PER_SPEC),
}
formwell.library_path = LIBRARY_PATH
formwell.header_path = HEADER_PATH
formwell.version = ffi_string(lib.fw_version())

-- Enum names, read from the header (so no list here can drift): enums.fw_status[3] = "FW_ERR_UNKNOWN_FIELD".
local enums = {}
for name, body in HEADER:gmatch("typedef enum (fw_[%w_]+) {(.-)}") do
  local names = {}
  for constant, value in body:gmatch("(FW_[%w_]+) = (%d+)") do names[tonumber(value)] = constant end
  enums[name] = names
end

-- Lower-case short names: phase_names[1] = "focused" (from FW_PHASE_FOCUSED).
local function short_names(enum, prefix)
  local names = {}
  for value, constant in pairs(enums[enum]) do names[value] = constant:sub(#prefix + 1):lower() end
  return names
end
local PHASE = short_names("fw_phase", "FW_PHASE_")
local VALIDITY = short_names("fw_validity", "FW_VALIDITY_")
local DISPLAY = short_names("fw_display", "FW_DISPLAY_")
local MODE = short_names("fw_mode", "FW_MODE_")               -- 0 = "two_stage" ... 4 = "on_submit"
local ERROR_MODE = short_names("fw_error_mode", "FW_ERRORS_") -- 0 = "first", 1 = "all"
local TINT = short_names("fw_tint", "FW_TINT_")
local function reverse(names)
  local values = {}
  for value, name in pairs(names) do values[name] = value end
  return values
end
local MODE_VALUE, ERROR_MODE_VALUE = reverse(MODE), reverse(ERROR_MODE)
local function listed(names)
  local list = {}
  for value = 0, #names do list[#list + 1] = names[value] end
  return table.concat(list, ", ")
end
local MODE_NAMES, ERROR_MODE_NAMES = listed(MODE), listed(ERROR_MODE)
local RULE_KIND = {}
for value, name in pairs(short_names("fw_rule_kind", "FW_RULE_")) do RULE_KIND[name] = value end
local ASYNC_VERDICT_VALUE = reverse(short_names("fw_async_verdict", "FW_ASYNC_")) -- valid, invalid, error
local SUBMIT_OUTCOME = short_names("fw_submit_outcome", "FW_SUBMIT_")           -- 0 = "valid" ... 2 = "pending"
local ASYNC_VERDICT_NAMES = listed(short_names("fw_async_verdict", "FW_ASYNC_"))
local NORMALIZER = short_names("fw_normalizer", "FW_NORMALIZE_")   -- 0 = "trim" ... 4 = "digits_only"
local NORMALIZER_VALUE, NORMALIZER_NAMES = reverse(NORMALIZER), listed(NORMALIZER)
formwell.status_names = enums.fw_status

local OK = tonumber(lib.FW_OK)
local ERR_CALLBACK = tonumber(lib.FW_ERR_CALLBACK)
local ERR_TOO_SMALL = tonumber(lib.FW_ERR_BUFFER_TOO_SMALL)
local CELL_OWN_MESSAGE = tonumber(lib.FW_CELL_OWN_MESSAGE)
local CELL_LIMIT_EXCEEDED = tonumber(lib.FW_CELL_LIMIT_EXCEEDED)
local MODE_FORM = tonumber(lib.FW_MODE_FORM)
local VERDICT_VALID, VERDICT_INVALID, VERDICT_ERROR =
  tonumber(lib.FW_VERDICT_VALID), tonumber(lib.FW_VERDICT_INVALID), tonumber(lib.FW_VERDICT_ERROR)

-- ---- errors ----------------------------------------------------------------------------------

local Error = {}
Error.__index = Error
Error.__tostring = function(e)
  return e.status .. ": " .. (e.detail ~= "" and e.detail or e.description)
end
formwell.Error = Error

function formwell.is_error(value)
  return getmetatable(value) == Error
end

local detail_buf = ffi_new("char[1024]")
local length_out = ffi_new("size_t[1]")

-- A custom validator's error, kept for the call that ran it (first one wins).
local pending, has_pending = nil, false

-- Raises the Lua error for status (non-OK) returned by the C function named `call`.
local function raise(status, call)
  status = tonumber(status)
  local value, had = pending, has_pending
  pending, has_pending = nil, false -- a validator's error belongs to this failing call, never a later one
  if status == ERR_CALLBACK and had then error(value, 0) end
  local detail = ""
  if lib.fw_last_error_message(detail_buf, 1024, length_out) == OK then detail = ffi_string(detail_buf) end
  local offset = tonumber(lib.fw_last_error_offset())
  error(setmetatable({
    status = enums.fw_status[status] or ("FW_STATUS_" .. status),
    code = status,
    description = ffi_string(lib.fw_status_string(status)),
    detail = detail,
    call = call,
    offset = offset >= 0 and offset or nil,
  }, Error), 0)
end

local function argument_error(what, level)
  error("formwell: " .. what, (level or 2) + 1)
end

-- Raises the error of status (as raise does) after running cleanup, whose own library calls would
-- otherwise replace the thread's last error message first.
local function raise_after(status, call, cleanup)
  local _, err = pcall(raise, status, call)
  cleanup()
  error(err, 0)
end

-- A Lua string fit for a C string argument (no NUL byte: C would silently cut it there).
local function cstring(value, what)
  if type(value) ~= "string" then argument_error(what .. " must be a string, not " .. type(value), 3) end
  if find(value, "\0", 1, true) then argument_error(what .. " contains a NUL byte", 3) end
  return value
end

local function optional_cstring(value, what)
  if value == nil then return nil end
  return cstring(value, what)
end

-- The fw_mode value of a mode name ("on_blur"); the fw_error_mode value of "first" / "all".
local function mode_value(mode, what)
  local value = MODE_VALUE[mode]
  if value == nil then
    if type(mode) ~= "string" then
      argument_error(("%s must be a mode name (%s), not %s"):format(what, MODE_NAMES, type(mode)), 3)
    end
    argument_error(("unknown %s '%s' (expected one of: %s)"):format(what, mode, MODE_NAMES), 3)
  end
  return value
end

local function error_mode_value(errors)
  local value = ERROR_MODE_VALUE[errors]
  if value == nil then
    argument_error(("error mode must be one of %s, not %s"):format(ERROR_MODE_NAMES,
      type(errors) == "string" and "'" .. errors .. "'" or type(errors)), 3)
  end
  return value
end

-- The fw_normalizer values of a list of normaliser names ({"trim", "lowercase"}), as an int32_t
-- array and its length. A name given twice is left to the library (FW_ERR_INVALID_ARGUMENT).
local function normalizer_array(list, what)
  if type(list) ~= "table" then
    argument_error(("%s must be an array of normaliser names (%s), not %s"):format(what, NORMALIZER_NAMES, type(list)), 3)
  end
  local n = #list
  for key in pairs(list) do
    if type(key) ~= "number" or key < 1 or key > n or key ~= math.floor(key) then
      argument_error(("%s must be an array of normaliser names, not a table with the key %s"):format(what, tostring(key)), 3)
    end
  end
  local array = ffi_new("int32_t[?]", n > 0 and n or 1)
  for i = 1, n do
    local value = NORMALIZER_VALUE[list[i]]
    if value == nil then
      argument_error(("%s[%d]: unknown normaliser %s (expected one of: %s)"):format(what, i,
        type(list[i]) == "string" and "'" .. list[i] .. "'" or type(list[i]), NORMALIZER_NAMES), 3)
    end
    array[i - 1] = value
  end
  return array, n
end

-- A host time in milliseconds (tick, next_request): a whole number of 0 or more, or a uint64_t cdata.
local function milliseconds(value, what)
  if type(value) == "number" then
    if value >= 0 and value < 2^64 and value == math.floor(value) then return value end
    argument_error(("%s must be a whole number of milliseconds, 0 or more, not %s"):format(what, tostring(value)), 3)
  end
  if type(value) == "cdata" and ffi.istype("uint64_t", value) then return value end
  argument_error(("%s must be a number of milliseconds, not %s"):format(what, type(value)), 3)
end

-- A debounce in milliseconds (fw_rule's int32_t length): a whole number from 0 to 2^31 - 1.
local function debounce(value, what)
  if type(value) ~= "number" or value < 0 or value > 2147483647 or value ~= math.floor(value) then
    argument_error(("%s must be a whole number of milliseconds from 0 to 2147483647, not %s"):format(what,
      type(value) == "number" and tostring(value) or type(value)), 4)
  end
  return value
end

-- ---- custom validators: one shared callback ----------------------------------------------------
--
-- LuaJIT has a fixed number of callback slots (about 900 here, never collected), so every Lua
-- validator goes through ONE ffi callback; the rule's context is a key into `registry`. The form
-- keeps its validators alive (form._validators); the registry is weak, so a collected form takes
-- its validators with it. No destroy function is given: nothing calls into Lua from fw_form_free
-- (a __gc finalizer may run it).

local registry = setmetatable({}, { __mode = "v" })
local next_key = 0
local message_anchor -- keeps the returned message alive until the library has copied it

local function run_validator(context, value, length, out_message)
  local fn = registry[tonumber(ffi.cast("uintptr_t", context))]
  if fn == nil then error("formwell: custom validator is gone", 0) end
  local result = fn(ffi_string(value, length))
  if result == nil or result == true then return VERDICT_VALID end
  if result == false then return VERDICT_INVALID end
  if type(result) == "string" then
    message_anchor = result
    out_message[0] = result
    return VERDICT_INVALID
  end
  error("formwell: a custom validator returned a " .. type(result)
    .. " (expected true/nil for valid, false or a message for invalid)", 0)
end

-- The contract: a callback must return; a Lua error never unwinds through the library. It is caught
-- here, the verdict is FW_VERDICT_ERROR (the call fails with FW_ERR_CALLBACK and changes nothing)
-- and raise() re-raises the error from the call that ran the validator.
local function trampoline(context, value, length, out_message)
  local ok, verdict = pcall(run_validator, context, value, length, out_message)
  if ok then return verdict end
  if not has_pending then pending, has_pending = verdict, true end
  return VERDICT_ERROR
end
local VALIDATE_CALLBACK = ffi.cast("fw_validate_fn", trampoline)

local function register(form, fn)
  next_key = next_key + 1
  registry[next_key] = fn
  form._validators[#form._validators + 1] = fn
  return ffi.cast("void *", next_key)
end

-- ---- rules -----------------------------------------------------------------------------------
-- A rule is a table shaped as in a JSON spec: {rule = "min_length", length = 8, message = "Too short"}.
-- A custom rule takes a Lua function (or the name of one given to define_validator) as `validate`.
-- `hint` (optional, last argument of every constructor): the accessibility hint surfaced while the
-- field's display shows this rule's message (nil: the rule kind's default hint).

-- Every kind of the library's rule catalogue (fw_rule_catalog, read once at load: no list of kinds
-- here) gets a constructor named as the kind: required parameters first, then message and hint,
-- or an options table with message, hint and the optional parameters:
--   formwell.min_length(8, "Too short"), formwell.min_length(8, { unit = "utf16" }),
--   formwell.url({ schemes = { "https" } }), formwell.password_strength({ min_score = 3 }),
--   formwell.integer({ min = 1, max = 10 }), formwell.one_of({ "S", "M" }),
--   formwell.required_if("country", "US").
-- custom and async rules carry Lua functions: formwell.custom and formwell.async_rule below.
local json = package.loaded["formwell_json"] or dofile(DIR .. "/formwell_json.lua")

local function read_catalog()
  local needed = ffi_new("size_t[1]")
  lib.fw_rule_catalog(nil, 0, needed)
  local size = tonumber(needed[0])
  local buf = ffi_new("char[?]", size + 1)
  local status = tonumber(lib.fw_rule_catalog(buf, size + 1, nil))
  if status ~= OK then error("formwell: fw_rule_catalog failed with status " .. status, 0) end
  return json.decode(ffi_string(buf, size))
end

local CATALOG = read_catalog()
local KINDS = {}
for _, kind in ipairs(CATALOG.kinds) do KINDS[kind.name] = kind end
formwell.catalog = CATALOG       -- the catalogue as data: kinds, codes, parameters, default messages

for _, kind in ipairs(CATALOG.kinds) do
  if kind.name ~= "custom" and kind.name ~= "async" then
    local required = {}
    for _, p in ipairs(kind.parameters) do if p.required then required[#required + 1] = p.name end end
    formwell[kind.name] = function(...)
      local r = { rule = kind.name }
      for i, name in ipairs(required) do r[name] = select(i, ...) end
      local rest = select(#required + 1, ...)
      if type(rest) == "table" then
        for key, value in pairs(rest) do r[key] = value end
      else
        r.message, r.hint = rest, select(#required + 2, ...)
      end
      return r
    end
  end
end

--- A named list of rules (seed 03's CombinedValidator) used as one rule: add_field defines it on
--- the form (fw_form_define_rule_set) and adds its rules; an export writes {"rule": "set"}.
function formwell.rule_set(name, rules)
  if type(rules) ~= "table" then argument_error("rule_set needs a name and a list of rules") end
  return { rule = "set", name = name, rules = rules }
end

-- JSON text of a rule table, typed by the catalogue (so {} is an empty list where a list is meant).
local function json_string(value, what)
  cstring(value, what)
  return '"' .. value:gsub('[%c"\\]', function(c) return ("\\u%04x"):format(c:byte()) end) .. '"'
end

local function rule_json(r, where)
  local kind = KINDS[r.rule]
  if kind == nil then argument_error(("%s: unknown rule %s"):format(where, tostring(r.rule)), 4) end
  local parts = { '"rule":' .. json_string(r.rule, "a rule's kind") }
  for _, p in ipairs(kind.parameters) do
    local value = r[p.name]
    if value ~= nil then
      local text
      if p.type == "integer" then
        if type(value) ~= "number" or value ~= math.floor(value) then
          argument_error(("%s: %s must be a whole number"):format(where, p.name), 4)
        end
        text = ("%d"):format(value)
      elseif p.type == "string_list" then
        if type(value) ~= "table" then argument_error(("%s: %s must be a list of strings"):format(where, p.name), 4) end
        local items = {}
        for i = 1, #value do items[i] = json_string(value[i], p.name) end
        text = "[" .. table.concat(items, ",") .. "]"
      elseif p.type == "decimal" and type(value) == "number" then
        text = ("%.15g"):format(value)  -- the shortest text of a decimal bound like 0.1
      else
        text = json_string(value, p.name)
      end
      parts[#parts + 1] = json_string(p.name, "a parameter") .. ":" .. text
    end
  end
  if r.message ~= nil then parts[#parts + 1] = '"message":' .. json_string(r.message, "a rule's message") end
  if r.hint ~= nil then parts[#parts + 1] = '"hint":' .. json_string(r.hint, "a rule's hint") end
  return "{" .. table.concat(parts, ",") .. "}"
end

function formwell.custom(validate, message, hint)
  return { rule = "custom", validate = validate, message = message, hint = hint }
end

--- An asynchronous rule: a check the HOST makes (form:next_request hands it out, form:resolve
--- answers it). options (optional): {debounce_ms = 500 (the default), message = "...", hint = "..."}:
--- message replaces the message an "invalid" verdict brings; hint as for the other rules. As in a
--- spec: {rule = "async", name = "username_available", debounce_ms = 500}. A field's async rules
--- are numbered (failing_rule) after its synchronous rules, in the order given.
function formwell.async_rule(name, options)
  if options ~= nil and type(options) ~= "table" then
    argument_error("async_rule options must be a table {debounce_ms =, message =, hint =}, not " .. type(options))
  end
  options = options or {}
  return { rule = "async", name = name, debounce_ms = options.debounce_ms, message = options.message, hint = options.hint }
end

-- ---- forms -----------------------------------------------------------------------------------

local SNAPSHOT_SIZE = ffi.sizeof("fw_snapshot")
local snapshot_t = ffi.typeof("fw_snapshot")
local request_t = ffi.typeof("fw_request")
local REQUEST_SIZE = ffi.sizeof("fw_request")
local form_ptr_t = ffi.typeof("fw_form *[1]")

local Form = {}  -- the methods of every form
local FormMeta = { __index = Form }

local function free_form(ptr) lib.fw_form_free(ptr) end

local function new_form()
  local out = form_ptr_t()
  local status = lib.fw_form_create(out)
  if status ~= OK then raise(status, "fw_form_create") end
  local self = {
    _ptr = ffi.gc(out[0], free_form),
    _validators = {},
    _named = {},
    _snap = snapshot_t(),
    _buf = ffi_new("char[?]", 256),
    _bufsize = 256,
    _req = request_t(),
  }
  self._snap.size = SNAPSHOT_SIZE
  return setmetatable(self, FormMeta)
end

--- An empty form. options (optional): {mode = "on_blur", errors = "all", locale = "fr"}: the form's
--- validation mode (two_stage, the default, on_change, on_blur, on_touched, on_submit), error mode
--- (first, the default, or all) and message locale (a catalogue tag, see set_locale; "en" by default).
function formwell.Form(options)
  local mode, errors, locale
  if options ~= nil then
    if type(options) ~= "table" then argument_error("Form options must be a table, not " .. type(options)) end
    if options.mode ~= nil then mode = mode_value(options.mode, "mode") end
    if options.errors ~= nil then errors = error_mode_value(options.errors) end
    if options.locale ~= nil then locale = cstring(options.locale, "locale") end
  end
  local form = new_form()
  local function free() form:free() end
  if mode ~= nil then
    local status = lib.fw_form_set_mode(form._ptr, mode)
    if status ~= OK then raise_after(status, "fw_form_set_mode", free) end
  end
  if errors ~= nil then
    local status = lib.fw_form_set_error_mode(form._ptr, errors)
    if status ~= OK then raise_after(status, "fw_form_set_error_mode", free) end
  end
  if locale ~= nil then
    local status = lib.fw_form_set_locale(form._ptr, locale)
    if status ~= OK then raise_after(status, "fw_form_set_locale", free) end
  end
  return form
end

-- From the moment a Lua validator is attached, the form's events run through the JIT-off copies
-- (see "JIT" below).
local function uses_callbacks(self)
  self._callbacks = true
end

local function ptr(self)
  local p = self._ptr
  if p == nil then argument_error("the form is freed", 3) end
  return p
end

-- The error list of a snapshot: error_count NUL-terminated messages one after another.
local function error_list(s)
  local errors, n = {}, tonumber(s.error_count)
  if n > 0 then
    local at = s.errors
    for i = 1, n do
      local message = ffi_string(at)
      errors[i] = message
      at = at + #message + 1
    end
  end
  return errors
end

-- The snapshot in self._snap as a Lua table (texts copied out of self._buf). The snapshot's size
-- is sizeof(fw_snapshot) of the header, so the second version's members are filled too.
-- Texts that are often empty skip ffi.string (which hashes even an empty string).
local function text(p, length)
  if length == 0 then return "" end
  return ffi_string(p, length)
end

-- A failure's parameters: the JSON object text (keys sorted) as a Lua table; "{}" (and a text not
-- copied) as an empty table without decoding.
local function params_table(p, length)
  length = tonumber(length)
  if length <= 2 or p == nil then return {} end
  return (json.decode(ffi_string(p, length)))
end

-- The code list of a snapshot (version 4): error_count NUL-terminated codes, laid out as `errors`.
local function code_list(s)
  local codes, n = {}, tonumber(s.error_count)
  if n > 0 and s.error_codes ~= nil then
    local at = s.error_codes
    for i = 1, n do
      local code = ffi_string(at)
      codes[i] = code
      at = at + #code + 1
    end
  end
  return codes
end

local function snapshot_table(s)
  local rule, display, dirty = s.failing_rule, DISPLAY[s.display], s.dirty
  local display_message = text(s.display_message, s.display_message_length)
  return {
    index = tonumber(s.index) + 1,
    phase = PHASE[s.phase],
    validity = VALIDITY[s.validity],
    display = display,
    message = text(s.message, s.message_length),
    display_message = display_message,
    value = ffi_string(s.value, s.value_length),
    touched = s.touched,
    limit_exceeded = s.limit_exceeded,
    failing_rule = rule >= 0 and rule + 1 or nil,
    -- version 2
    visited = s.visited,
    dirty = dirty,
    pristine = not dirty,
    initial = text(s.initial, s.initial_length),
    modified_since_submit = s.modified_since_submit,
    external_error = s.external_error,
    errors = error_list(s),
    mode = MODE[s.mode],
    tint = TINT[s.tint],
    label_raised = s.label_raised,
    emphasized = s.emphasized,
    label = ffi_string(s.label, s.label_length),
    accessibility_value = display == "error" and display_message or "",
    accessibility_hint = text(s.hint, s.hint_length),
    revision = tonumber(s.revision),
    -- version 3
    normalized = ffi_string(s.normalized, s.normalized_length),
    secret = s.secret,
    -- version 4
    code = text(s.code, s.code_length),
    params = params_table(s.params, s.params_length),
    display_code = text(s.display_code, s.display_code_length),
    display_params = params_table(s.display_params, s.display_params_length),
    error_codes = code_list(s),
  }
end

local function grow(self, size)
  size = tonumber(size)
  local new = 256
  while new < size do new = new * 2 end
  self._buf, self._bufsize = ffi_new("char[?]", new), new
end

-- Snapshots of field `id` (a string) or of the field at index `id` (a number, 1-based); one C call,
-- two only when the texts outgrow the form's buffer.
local function snapshot(self, id)
  local p, s = ptr(self), self._snap
  local status
  if type(id) == "number" then
    status = lib.fw_field_snapshot_at(p, id - 1, s, self._buf, self._bufsize)
  else
    status = lib.fw_field_snapshot(p, cstring(id, "field id"), s, self._buf, self._bufsize)
  end
  if status ~= OK then
    if status ~= ERR_TOO_SMALL then raise(status, "fw_field_snapshot") end
    grow(self, s.text_size)
    return snapshot(self, id)
  end
  return s
end

--- The field's whole state, read in one fw_field_snapshot call: a table {index, phase, validity,
--- message, display, display_message, value, touched, limit_exceeded, failing_rule, visited, dirty,
--- pristine, initial, modified_since_submit, external_error, errors (an array), mode, tint,
--- label_raised, emphasized, label, accessibility_value, accessibility_hint, revision, normalized,
--- secret, code, params, display_code, display_params, error_codes}: value is what was set (what a
--- view shows back), normalized the value after the field's normalisers (what its rules judged and
--- a submission uses). code / params: the stable failure code ("min_length", "pattern_limit",
--- "external", ...) and its parameters (a table decoded from the library's JSON object, {} for
--- none) of `message`, "" and {} unless invalid; display_code / display_params likewise of
--- display_message ("" and {} unless the display is "error"); error_codes, the code of each
--- message in `errors`. Codes never change with the locale.
function Form:state(id)
  return snapshot_table(snapshot(self, id))
end

--- The value as it was set (what a view shows back).
function Form:get(id)
  local s = snapshot(self, id)
  return ffi_string(s.value, s.value_length)
end

--- The value after the field's normalisers: what its rules judged and what a submission uses (the
--- same text as get(id) when the field has none).
function Form:get_normalized(id)
  local s = snapshot(self, id)
  return ffi_string(s.normalized, s.normalized_length)
end

-- Reads a string the library copies out: call(p, buf, size, out_length) wraps the C function;
-- the buffer grows when the text does not fit.
local function read_string(self, name, call)
  local p = ptr(self)
  local status = call(p, self._buf, self._bufsize, length_out)
  if status == ERR_TOO_SMALL then
    grow(self, length_out[0] + 1)
    status = call(p, self._buf, self._bufsize, length_out)
  end
  if status ~= OK then raise(status, name) end
  return ffi_string(self._buf, length_out[0])
end

function Form:count()
  local out = ffi_new("size_t[1]")
  local status = lib.fw_form_field_count(ptr(self), out)
  if status ~= OK then raise(status, "fw_form_field_count") end
  return tonumber(out[0])
end

--- The field ids in registration order.
function Form:fields()
  local ids = {}
  for i = 1, self:count() do
    ids[i] = read_string(self, "fw_form_field_id", function(p, buf, size, out)
      return lib.fw_form_field_id(p, i - 1, buf, size, out)
    end)
  end
  return ids
end

--- The field's 1-based index (for the *_at calls and state(index)).
function Form:index(id)
  local out = ffi_new("size_t[1]")
  local status = lib.fw_form_field_index(ptr(self), cstring(id, "field id"), out)
  if status ~= OK then raise(status, "fw_form_field_index") end
  return tonumber(out[0]) + 1
end

--- Every field's value for submission, as {id = value}: normalised (get_normalized), what the
--- rules judged.
function Form:values()
  local values = {}
  for i, id in ipairs(self:fields()) do values[id] = self:get_normalized(i) end
  return values
end

--- The field's normalisers, in order: an array of names ({"trim", "lowercase"}).
function Form:normalizers(id)
  local p, count = ptr(self), ffi_new("size_t[1]")
  local capacity, array, status = 8, nil, nil
  for _ = 1, 4 do
    array = ffi_new("int32_t[?]", capacity)
    status = lib.fw_field_normalizers(p, cstring(id, "field id"), array, capacity, count)
    if status ~= ERR_TOO_SMALL then break end
    capacity = tonumber(count[0])
  end
  if status ~= OK then raise(status, "fw_field_normalizers") end
  local names = {}
  for i = 1, tonumber(count[0]) do names[i] = NORMALIZER[array[i - 1]] end
  return names
end

--- Marks the field secret (a password, a token) or not (secret: a boolean, true when left out):
--- state().secret tells a view to draw the value hidden, and export_spec leaves out the field's
--- initial value. Its value is still read as any value (state().value, get, values).
function Form:set_secret(id, secret)
  if secret == nil then secret = true end
  if type(secret) ~= "boolean" then argument_error("secret must be a boolean, not " .. type(secret)) end
  local status = lib.fw_field_set_secret(ptr(self), cstring(id, "field id"), secret)
  if status ~= OK then raise(status, "fw_field_set_secret") end
end

function Form:is_valid()
  local out = ffi_new("bool[1]")
  local status = lib.fw_form_is_valid(ptr(self), out)
  if status ~= OK then raise(status, "fw_form_is_valid") end
  return out[0]
end

--- The first failing field's id (registration order), or nil.
function Form:first_invalid()
  local id = read_string(self, "fw_form_first_invalid", lib.fw_form_first_invalid)
  if id == "" then return nil end
  return id
end

-- ---- groups, the form's own state, change tracking (queries: no validator runs) ----------------

local info_t = ffi.typeof("fw_form_info")
local INFO_SIZE = ffi.sizeof("fw_form_info")

local function group_name(group)
  return cstring(group, "group name")
end

--- Whether every field of the group passes its strict rules on its current value (is_valid for
--- one group). A group no field belongs to raises FW_ERR_INVALID_ARGUMENT.
function Form:is_valid_in(group)
  local out = ffi_new("bool[1]")
  local status = lib.fw_form_is_valid_group(ptr(self), group_name(group), out)
  if status ~= OK then raise(status, "fw_form_is_valid_group") end
  return out[0]
end

--- The id of the group's first failing field (registration order), or nil.
function Form:first_invalid_in(group)
  local name = group_name(group)
  local id = read_string(self, "fw_form_first_invalid_group", function(p, buf, size, out)
    return lib.fw_form_first_invalid_group(p, name, buf, size, out)
  end)
  if id == "" then return nil end
  return id
end

--- The form's own state in one fw_form_get_info call: {field_count, dirty_count, dirty, revision,
--- submit_count, submit_failed, mode, error_mode, pending_count, stale_results, now}: pending_count,
--- the fields waiting for an async check (their live verdict); stale_results, the results dropped
--- as stale since the form was made; now, the host time last told (ms).
function Form:info()
  local info = info_t()
  info.size = INFO_SIZE
  local status = lib.fw_form_get_info(ptr(self), info)
  if status ~= OK then raise(status, "fw_form_get_info") end
  return {
    field_count = tonumber(info.field_count),
    dirty_count = tonumber(info.dirty_count),
    dirty = info.dirty,
    revision = tonumber(info.revision),
    submit_count = tonumber(info.submit_count),
    submit_failed = info.submit_failed,
    mode = MODE[info.mode],
    error_mode = ERROR_MODE[info.error_mode],
    -- version 2
    pending_count = tonumber(info.pending_count),
    stale_results = tonumber(info.stale_results),
    now = tonumber(info.now_ms),
  }
end

--- The form's validation mode ("two_stage", ...): fields without a mode of their own follow it.
function Form:mode() return self:info().mode end
--- The error mode: "first" (each field reports its first failing rule) or "all" (every one).
function Form:error_mode() return self:info().error_mode end
--- Whether any field's value differs from its initial value (byte for byte).
function Form:dirty() return self:info().dirty end
--- Whole-form validates since the form was made or last reset (group validates do not count).
function Form:submit_count() return self:info().submit_count end
--- Whether the last whole-form validate answered false (cleared by reset).
function Form:submit_failed() return self:info().submit_failed end
--- The form's revision: goes up with every event that changes anything observable.
function Form:revision() return self:info().revision end

-- Every field's snapshot, without texts, in one fw_form_snapshots call: the array and the count.
local function all_snapshots(self)
  local p, count = ptr(self), ffi_new("size_t[1]")
  local capacity = self:count()
  local snaps
  for _ = 1, 8 do -- a field added by another thread in between: ask again with more room
    snaps = ffi_new("fw_snapshot[?]", capacity > 0 and capacity or 1)
    for i = 0, capacity - 1 do snaps[i].size = SNAPSHOT_SIZE end
    local status = lib.fw_form_snapshots(p, snaps, capacity, count, nil, 0, nil)
    if tonumber(count[0]) <= capacity and (status == OK or status == ERR_TOO_SMALL) then break end
    if status ~= ERR_TOO_SMALL then raise(status, "fw_form_snapshots") end
    capacity = tonumber(count[0])
  end
  return snaps, tonumber(count[0])
end

--- The ids of the dirty fields, in registration order (their flags read in one fw_form_snapshots call).
function Form:dirty_fields()
  local dirty = {}
  if self:info().dirty_count == 0 then return dirty end
  local snaps, count = all_snapshots(self)
  local ids = self:fields()
  for i = 0, count - 1 do
    if snaps[i].dirty then dirty[#dirty + 1] = ids[i + 1] end
  end
  return dirty
end

--- The ids (registration order) of the fields whose observable state changed after `revision` (a
--- value of form:revision() or of a state's revision); adding a field counts as a change of it.
function Form:changed_since(revision)
  if type(revision) == "number" then
    if revision < 0 or revision ~= math.floor(revision) then
      argument_error("revision must be a whole number of 0 or more, not " .. tostring(revision))
    end
  elseif not (type(revision) == "cdata" and ffi.istype("uint64_t", revision)) then
    argument_error("revision must be a number, not " .. type(revision))
  end
  local p, count = ptr(self), ffi_new("size_t[1]")
  local capacity = self:count()
  local indices, status
  for _ = 1, 8 do
    indices = ffi_new("size_t[?]", capacity > 0 and capacity or 1)
    status = lib.fw_form_changed_since(p, revision, indices, capacity, count)
    if status ~= ERR_TOO_SMALL then break end
    capacity = math.max(tonumber(count[0]), capacity + 1) -- a field was added meanwhile
  end
  if status ~= OK then raise(status, "fw_form_changed_since") end
  local ids = {}
  for i = 1, tonumber(count[0]) do
    local index = indices[i - 1]
    ids[i] = read_string(self, "fw_form_field_id", function(q, buf, size, out)
      return lib.fw_form_field_id(q, index, buf, size, out)
    end)
  end
  return ids
end

-- ---- asynchronous rules: queries ---------------------------------------------------------------

-- The id of the field at C index `index` (0-based).
local function id_at(self, index)
  return read_string(self, "fw_form_field_id", function(p, buf, size, out)
    return lib.fw_form_field_id(p, index, buf, size, out)
  end)
end

--- The ids (registration order) of the fields waiting for an asynchronous check (scheduled or
--- handed out), whatever their modes show (fw_form_pending_fields): typing in an on_blur field
--- lists it here before its first blur, while its state() still reads what it showed before.
--- Its length is info().pending_count.
function Form:pending_fields()
  local p, count = ptr(self), ffi_new("size_t[1]")
  local capacity, indices, status = 8, nil, nil
  for _ = 1, 8 do -- a field made pending by another thread in between: ask again with more room
    indices = ffi_new("size_t[?]", capacity)
    status = lib.fw_form_pending_fields(p, indices, capacity, count)
    if status ~= ERR_TOO_SMALL then break end
    capacity = math.max(tonumber(count[0]), capacity * 2)
  end
  if status ~= OK then raise(status, "fw_form_pending_fields") end
  local ids = {}
  for i = 1, tonumber(count[0]) do ids[i] = id_at(self, indices[i - 1]) end
  return ids
end

--- The id of the field that has focus, or nil when none has (fw_form_focused_field).
function Form:focused()
  local index, focused = ffi_new("size_t[1]"), ffi_new("bool[1]")
  local status = lib.fw_form_focused_field(ptr(self), index, focused)
  if status ~= OK then raise(status, "fw_form_focused_field") end
  if not focused[0] then return nil end
  return id_at(self, index[0])
end

--- The host time (ms) at which the next request not yet handed out falls due (it may be past
--- already: take it with next_request), or nil when none is scheduled (fw_form_next_due_time).
function Form:next_due()
  local due, scheduled = ffi_new("uint64_t[1]"), ffi_new("bool[1]")
  local status = lib.fw_form_next_due_time(ptr(self), due, scheduled)
  if status ~= OK then raise(status, "fw_form_next_due_time") end
  if not scheduled[0] then return nil end
  return tonumber(due[0])
end

--- Results dropped as stale since the form was made; the host time last told (ms).
function Form:stale_results() return self:info().stale_results end
function Form:now() return self:info().now end

--- After a failed submit, the screen-reader announcement naming the fields that fail now by label
--- ("2 fields need attention: Email, Password"); "" otherwise.
function Form:announcement()
  return read_string(self, "fw_form_announcement", lib.fw_form_announcement)
end

function Form:export_spec()
  return read_string(self, "fw_form_export_spec", lib.fw_form_export_spec)
end

function Form:set_match_limits(match_limit, depth_limit, heap_limit_kib)
  local status = lib.fw_form_set_match_limits(ptr(self), match_limit, depth_limit, heap_limit_kib)
  if status ~= OK then raise(status, "fw_form_set_match_limits") end
end

function Form:match_limits()
  local out = ffi_new("uint32_t[3]")
  local status = lib.fw_form_match_limits(ptr(self), out, out + 1, out + 2)
  if status ~= OK then raise(status, "fw_form_match_limits") end
  return tonumber(out[0]), tonumber(out[1]), tonumber(out[2])
end

--- The work budget of one match, in seconds of a deterministic cost model, not a clock
--- (fw_form_set_time_limit; 0.005 by default).
function Form:set_time_limit(seconds)
  local micros = math.floor(seconds * 1e6 + 0.5)
  local status = lib.fw_form_set_time_limit(ptr(self), micros)
  if status ~= OK then raise(status, "fw_form_set_time_limit") end
end

function Form:time_limit()
  local out = ffi_new("uint32_t[1]")
  local status = lib.fw_form_time_limit(ptr(self), out)
  if status ~= OK then raise(status, "fw_form_time_limit") end
  return tonumber(out[0]) / 1e6
end

--- The tag of the catalogue the form's messages and hints are worded in ("en" unless set; "fr"
--- after set_locale("fr-CA")).
function Form:locale()
  return read_string(self, "fw_form_locale", lib.fw_form_locale)
end

--- Frees the form now (it is also freed when collected). Later calls raise "the form is freed".
function Form:free()
  local p = self._ptr
  if p == nil then return end
  -- Freed first: from inside one of this form's validators the library refuses (FW_ERR_BUSY),
  -- and the form then stays usable, still freed when collected.
  local status = lib.fw_form_free(p)
  if status ~= OK then raise(status, "fw_form_free") end
  self._ptr = nil
  ffi.gc(p, nil)
  self._validators, self._named = {}, {}
end
Form.close = Form.free

function Form:is_freed()
  return self._ptr == nil
end

--- Defines a Lua validator that specs loaded later (load_spec, from_spec) and add_field may name:
--- {"rule": "custom", "name": name}.
--- Names a list of rules that fields then add as one with {rule = "set", name = name}
--- (fw_form_define_rule_set); defining a name again replaces its rules for later uses.
function Form:define_rule_set(name, rules)
  if type(rules) ~= "table" then argument_error("define_rule_set needs a list of rules") end
  local items = {}
  for i = 1, #rules do items[i] = rule_json(rules[i], ("rule %d of rule set %s"):format(i, tostring(name))) end
  local status = tonumber(lib.fw_form_define_rule_set(ptr(self), cstring(name, "rule set name"),
    "[" .. table.concat(items, ",") .. "]"))
  if status ~= OK then raise(status, "fw_form_define_rule_set") end
end

function Form:define_validator(name, fn)
  if type(fn) ~= "function" then argument_error("define_validator needs a function") end
  uses_callbacks(self)
  local status = lib.fw_form_define_validator(ptr(self), cstring(name, "validator name"), VALIDATE_CALLBACK,
    register(self, fn), nil)
  if status ~= OK then
    self._validators[#self._validators] = nil
    raise(status, "fw_form_define_validator")
  end
  self._named[name] = fn
end

-- ---- methods that fire events (custom validators may run inside them) --------------------------

-- Builds the fw_rule array of add_field; `anchors` keeps the Lua strings the structs point to alive.
local function rule_array(self, id, rules, anchors)
  local n = #rules
  local array = ffi_new("fw_rule[?]", n > 0 and n or 1)
  local fresh = 0
  for i = 1, n do
    local r, c = rules[i], array[i - 1]
    if type(r) ~= "table" then argument_error(("rule %d of %s is a %s, not a table"):format(i, id, type(r)), 3) end
    local where = ("rule %d of %s"):format(i, id)
    local kind = RULE_KIND[r.rule]
    local as_json = r.rule == "set" or (kind ~= nil and kind > RULE_KIND.async) or r.unit ~= nil
    if kind == nil and r.rule ~= "set" then argument_error(("%s: unknown rule %s"):format(where, tostring(r.rule)), 3) end
    c.size = ffi.sizeof("fw_rule")
    if as_json then
      -- Kinds after the struct's first version, a length with a unit, a rule set: the rule's JSON.
      local text = r.rule == "set" and ('{"rule":"set","name":' .. json_string(r.name, "a rule set's name") .. "}")
        or rule_json(r, where)
      anchors[#anchors + 1] = text
      c.kind = RULE_KIND.json
      c.text = text
    else
      c.kind = kind
    end
    if r.message ~= nil then
      anchors[#anchors + 1] = cstring(r.message, "a rule's message")
      c.message = r.message
    end
    if r.hint ~= nil then
      anchors[#anchors + 1] = cstring(r.hint, "a rule's hint")
      c.hint = r.hint
    end
    if as_json then
      -- message and hint went into the JSON
      c.message, c.hint = nil, nil
    elseif r.rule == "min_length" or r.rule == "max_length" then
      if type(r.length) ~= "number" then argument_error(("rule %d of %s: length must be a number"):format(i, id), 3) end
      c.length = r.length
    elseif r.rule == "regex" or r.rule == "matches" then
      local text = r.rule == "regex" and r.pattern or r.field
      anchors[#anchors + 1] = cstring(text, r.rule == "regex" and "a regex pattern" or "a matches field")
      c.text = text
    elseif r.rule == "async" then
      anchors[#anchors + 1] = cstring(r.name, "an async rule's name")
      c.text = r.name
      c.length = r.debounce_ms == nil and -1 or debounce(r.debounce_ms, ("rule %d of %s: debounce_ms"):format(i, id))
    elseif r.rule == "custom" then
      local fn = r.validate
      if fn == nil then fn = r.name end
      if type(fn) == "string" then fn = self._named[fn] end
      if type(fn) ~= "function" then
        argument_error(("rule %d of %s: a custom rule needs a function (validate) or a defined validator's name"):format(i, id), 3)
      end
      c.validate = VALIDATE_CALLBACK
      c.context = register(self, fn)
      fresh = fresh + 1
    end
  end
  return array, n, fresh
end

--- Adds a field and its rules in one atomic call (fw_form_add_field_with_rules).
--- options: {label = "Email", initial = "...", mode = "on_blur", groups = {"account", ...},
--- normalize = {"trim", "lowercase"}, secret = true}:
--- mode is the field's own validation mode (nil: follow the form's, also when it changes later);
--- groups, the validation groups the field belongs to; normalize, the normalisers (trim,
--- collapse_whitespace, lowercase, nfc, digits_only, each at most once) run in that order on every
--- value before the rules (the initial value too); secret, a password or token field. All or
--- nothing: when anything is refused the form is left without the field.
function Form:add_field(id, rules, options)
  rules, options = rules or {}, options or {}
  local anchors = {}
  for i = 1, #rules do
    local r = rules[i]
    if type(r) == "table" and r.rule == "set" and r.rules ~= nil then self:define_rule_set(r.name, r.rules) end
  end
  local array, n, fresh = rule_array(self, cstring(id, "field id"), rules, anchors)
  local mode = options.mode ~= nil and mode_value(options.mode, "mode") or nil
  local groups = options.groups or {}
  if type(groups) ~= "table" then argument_error("groups must be an array of group names, not " .. type(groups)) end
  for i = 1, #groups do group_name(groups[i]) end
  local normalizers, normalizer_count
  if options.normalize ~= nil then normalizers, normalizer_count = normalizer_array(options.normalize, "normalize") end
  if options.secret ~= nil and type(options.secret) ~= "boolean" then
    argument_error("secret must be a boolean, not " .. type(options.secret))
  end
  if fresh > 0 then uses_callbacks(self) end
  return self:_add_field_call(id, options, array, n, fresh, mode, groups, normalizers, normalizer_count)
end

local events = {}

function events._add_field_call(self, id, options, array, n, fresh, mode, groups, normalizers, normalizer_count)
  local p = ptr(self)
  local status = lib.fw_form_add_field_with_rules(p, id, optional_cstring(options.label, "label"),
    optional_cstring(options.initial, "initial value"), array, n)
  if status ~= OK then
    for _ = 1, fresh do self._validators[#self._validators] = nil end
    raise(status, "fw_form_add_field_with_rules")
  end
  local call = "fw_field_set_mode"
  if mode ~= nil then status = lib.fw_field_set_mode(p, id, mode) end
  for i = 1, #groups do
    if status ~= OK then break end
    call = "fw_field_add_group"
    status = lib.fw_field_add_group(p, id, groups[i])
  end
  if status == OK and normalizer_count ~= nil and normalizer_count > 0 then
    -- a normaliser given twice is refused here (FW_ERR_INVALID_ARGUMENT), and the field taken out
    call = "fw_field_set_normalizers"
    status = lib.fw_field_set_normalizers(p, id, normalizers, normalizer_count)
  end
  if status == OK and options.secret then
    call = "fw_field_set_secret"
    status = lib.fw_field_set_secret(p, id, true)
  end
  if status ~= OK then -- refused (a normaliser twice, a custom validator's error): take the field back out
    raise_after(status, call, function() lib.fw_form_remove_field(p, id) end)
  end
  return self
end

--- Loads a JSON spec (fw_form_load_spec) into this form; custom rules name define_validator's names.
function events.load_spec(self, text)
  local status = lib.fw_form_load_spec(ptr(self), cstring(text, "spec"))
  if status ~= OK then raise(status, "fw_form_load_spec") end
  return self
end

function events.focus(self, id)
  local status = lib.fw_field_focus(ptr(self), cstring(id, "field id"))
  if status ~= OK then raise(status, "fw_field_focus") end
end

function events.blur(self, id)
  local status = lib.fw_field_blur(ptr(self), cstring(id, "field id"))
  if status ~= OK then raise(status, "fw_field_blur") end
end

function events.touch(self, id)
  local status = lib.fw_field_touch(ptr(self), cstring(id, "field id"))
  if status ~= OK then raise(status, "fw_field_touch") end
end

--- Sets the value (typing when the field is focused, else programmatic).
function events.set(self, id, value)
  local p = ptr(self)
  local status = lib.fw_field_set_value(p, cstring(id, "field id"), cstring(value, "value"))
  if status ~= OK then raise(status, "fw_field_set_value") end
end

--- Sets the value and returns the new state, in one call (fw_field_update / fw_field_update_at when
--- `id` is a 1-based index): a keystroke and the redraw it needs.
function events.update(self, id, value)
  local p, s = ptr(self), self._snap
  local status
  if type(id) == "number" then
    status = lib.fw_field_update_at(p, id - 1, cstring(value, "value"), s, self._buf, self._bufsize)
  else
    status = lib.fw_field_update(p, cstring(id, "field id"), cstring(value, "value"), s, self._buf, self._bufsize)
  end
  if status ~= OK then
    if status ~= ERR_TOO_SMALL then raise(status, "fw_field_update") end
    grow(self, s.text_size)
    return snapshot_table(snapshot(self, id))
  end
  return snapshot_table(s)
end

--- Marks every field touched and runs every rule; with a group, only that group's fields.
function events.touch_all(self, group)
  local status
  if group == nil then
    status = lib.fw_form_touch_all(ptr(self))
  else
    status = lib.fw_form_touch_all_group(ptr(self), group_name(group))
  end
  if status ~= OK then raise(status, "fw_form_touch_all") end
end

--- Submit: touches every field, judges every field strictly; returns true when all pass. With a
--- group (a wizard step), only that group's fields take part and submit_count / submit_failed
--- are left alone.
function events.validate(self, group)
  local out = ffi_new("bool[1]")
  local status
  if group == nil then
    status = lib.fw_form_validate(ptr(self), out)
  else
    status = lib.fw_form_validate_group(ptr(self), group_name(group), out)
  end
  if status ~= OK then raise(status, "fw_form_validate") end
  return out[0]
end

--- Every value back to its initial value, every field idle, untouched, not visited; external
--- errors, submit_count and submit_failed cleared. values ({id = value}, optional) first become
--- those fields' initial values (an unknown id raises and changes nothing).
function events.reset(self, values)
  if values == nil then
    local status = lib.fw_form_reset(ptr(self))
    if status ~= OK then raise(status, "fw_form_reset") end
    return
  end
  if type(values) ~= "table" then argument_error("reset values must be a table {id = value}, not " .. type(values)) end
  local n = 0
  for _ in pairs(values) do n = n + 1 end
  local ids, data = ffi_new("const char *[?]", n + 1), ffi_new("const char *[?]", n + 1)
  local anchors, i = {}, 0
  for id, value in pairs(values) do
    anchors[#anchors + 1], anchors[#anchors + 2] = cstring(id, "field id"), cstring(value, "value")
    ids[i], data[i] = id, value
    i = i + 1
  end
  local status = lib.fw_form_reset_values(ptr(self), ids, data, n)
  if status ~= OK then raise(status, "fw_form_reset_values") end
end

--- Sets the form's validation mode (two_stage, on_change, on_blur, on_touched, on_submit).
function events.set_form_mode(self, mode)
  local status = lib.fw_form_set_mode(ptr(self), mode_value(mode, "mode"))
  if status ~= OK then raise(status, "fw_form_set_mode") end
end

--- Gives the field its own validation mode; nil: follow the form's mode again.
function events.set_mode(self, id, mode)
  local value = mode == nil and MODE_FORM or mode_value(mode, "mode")
  local status = lib.fw_field_set_mode(ptr(self), cstring(id, "field id"), value)
  if status ~= OK then raise(status, "fw_field_set_mode") end
end

--- Sets the error mode: "first" or "all" (every failing rule's message in state().errors).
function events.set_error_mode(self, errors)
  local status = lib.fw_form_set_error_mode(ptr(self), error_mode_value(errors))
  if status ~= OK then raise(status, "fw_form_set_error_mode") end
end

--- Words the form's messages and hints in the catalogue `tag` names ("fr", "fr-CA", "en_GB"):
--- matched case-insensitively with _ read as -, then by dropping subtags. Every field is judged
--- again (custom validators may run), so its state speaks the new language; codes and params do
--- not change. An unknown tag raises FW_ERR_INVALID_ARGUMENT and changes nothing.
function events.set_locale(self, tag)
  local status = lib.fw_form_set_locale(ptr(self), cstring(tag, "locale"))
  if status ~= OK then raise(status, "fw_form_set_locale") end
end

--- Replaces the field's normalisers (an array of names, each at most once; {} removes them). The
--- value set last is normalised again and the field, and the fields whose matches rule names it,
--- are re-judged; what was set (state().value) stays as it is.
function events.set_normalizers(self, id, list)
  local array, n = normalizer_array(list, "normalizers")
  local status = lib.fw_field_set_normalizers(ptr(self), cstring(id, "field id"), array, n)
  if status ~= OK then raise(status, "fw_field_set_normalizers") end
end

--- Adds the field to a validation group (as add_field's groups option does).
function events.add_to_group(self, id, group)
  local status = lib.fw_field_add_group(ptr(self), cstring(id, "field id"), group_name(group))
  if status ~= OK then raise(status, "fw_field_add_group") end
end

--- An error from outside the rules (a server's "already registered"): the field is invalid with
--- message (non-empty) until its value changes, clear_error, clear_errors or reset.
function events.set_error(self, id, message)
  local status = lib.fw_field_set_error(ptr(self), cstring(id, "field id"), cstring(message, "message"))
  if status ~= OK then raise(status, "fw_field_set_error") end
end

function events.clear_error(self, id)
  local status = lib.fw_field_clear_error(ptr(self), cstring(id, "field id"))
  if status ~= OK then raise(status, "fw_field_clear_error") end
end

function events.clear_errors(self)
  local status = lib.fw_form_clear_errors(ptr(self))
  if status ~= OK then raise(status, "fw_form_clear_errors") end
end

--- Removes the field (refused while another field's matches rule names it). Later fields move
--- down one index. The binding keeps no id or index cache (check_many reads initial values from
--- the library), so nothing of the removed field lingers here.
function events.remove_field(self, id)
  local status = lib.fw_form_remove_field(ptr(self), cstring(id, "field id"))
  if status ~= OK then raise(status, "fw_form_remove_field") end
end

-- ---- asynchronous rules: events ----------------------------------------------------------------

--- Adds an asynchronous rule to an existing field (fw_field_add_async_rule), after its other async
--- rules: options {debounce_ms = 500, message = "..."} as formwell.async_rule's (a hint needs the
--- rule list of add_field or a spec: the C call takes none).
function events.add_async_rule(self, id, name, options)
  if options ~= nil and type(options) ~= "table" then
    argument_error("add_async_rule options must be a table {debounce_ms =, message =}, not " .. type(options))
  end
  options = options or {}
  if options.hint ~= nil then
    argument_error("add_async_rule takes no hint (give the rule to add_field, or in a spec, to have one)")
  end
  local delay = options.debounce_ms == nil and 500 or debounce(options.debounce_ms, "debounce_ms")
  local status = lib.fw_field_add_async_rule(ptr(self), cstring(id, "field id"), cstring(name, "async rule name"),
    delay, optional_cstring(options.message, "message"))
  if status ~= OK then raise(status, "fw_field_add_async_rule") end
end

--- Tells the form the host's monotonic time in ms (fw_form_tick); a time before the last one told
--- is ignored. Values set afterwards are dated with it (a request falls due at now + debounce).
function events.tick(self, now)
  local status = lib.fw_form_tick(ptr(self), milliseconds(now, "now"))
  if status ~= OK then raise(status, "fw_form_tick") end
end

local found_out = ffi_new("bool[1]")

--- Ticks to now (ms) and hands out the request due first (fw_form_next_request), once: a table
--- {id, field, index (1-based), value, rule, due}, or nil when none is due. Check `value` with the
--- rule named `rule` however you like, then form:resolve(id, ...).
function events.next_request(self, now)
  now = milliseconds(now, "now")
  local p, r = ptr(self), self._req
  local status
  for _ = 1, 8 do
    r.size = REQUEST_SIZE
    status = lib.fw_form_next_request(p, now, r, self._buf, self._bufsize, found_out)
    if status ~= ERR_TOO_SMALL then break end
    -- the texts did not fit: nothing was handed out; retry with room for them
    grow(self, r.text_size)
  end
  if status ~= OK then raise(status, "fw_form_next_request") end
  if not found_out[0] then return nil end
  return {
    id = tonumber(r.id),
    field = ffi_string(r.field_id, r.field_id_length),
    index = tonumber(r.field_index) + 1,
    value = ffi_string(r.value, r.value_length),
    rule = ffi_string(r.rule, r.rule_length),
    due = tonumber(r.due),
  }
end

local stale_out = ffi_new("bool[1]")

--- Answers request `id` (a number, or the table next_request gave) with verdict "valid", "invalid"
--- or "error" and an optional message (for invalid / error). Returns "applied" (the field's
--- current request: its verdict is the field's now) or "stale" (its value changed, or the form was
--- reset or the field removed, since it was handed out: dropped, counted in stale_results).
--- Raises FW_ERR_UNKNOWN_REQUEST (never issued), FW_ERR_REQUEST_CLOSED (already resolved) or
--- FW_ERR_INVALID_ARGUMENT (not handed out yet); those change nothing.
function events.resolve(self, id, verdict, message)
  if type(id) == "table" then id = id.id end
  if type(id) == "number" then
    if not (id >= 0 and id < 2^64 and id == math.floor(id)) then
      argument_error("request id must be a whole number, 0 or more, not " .. tostring(id))
    end
  elseif not (type(id) == "cdata" and ffi.istype("uint64_t", id)) then
    argument_error("request id must be a number (or the table next_request gave), not " .. type(id))
  end
  local value = ASYNC_VERDICT_VALUE[verdict]
  if value == nil then
    argument_error(("verdict must be one of %s, not %s"):format(ASYNC_VERDICT_NAMES,
      type(verdict) == "string" and "'" .. verdict .. "'" or type(verdict)))
  end
  local status = lib.fw_form_resolve(ptr(self), id, value, optional_cstring(message, "message"), stale_out)
  if status ~= OK then raise(status, "fw_form_resolve") end
  return stale_out[0] and "stale" or "applied"
end

local outcome_out = ffi_new("int32_t[1]")
local member_out = ffi_new("bool[1]")

--- Submit with asynchronous rules (fw_form_submit): validate (the whole form, or the group's
--- fields) after making their debounced requests due at once, then the outcome: "invalid" (a field
--- fails now), "pending" (none fails, some wait for an async check: take them with next_request),
--- or "valid"; and, second, the ids of the fields taking part that wait for a check ({} unless
--- pending): pending_fields(), kept to the group's members (fw_field_in_group) for a group.
function events.submit(self, group)
  local name = group ~= nil and group_name(group) or nil
  local p = ptr(self)
  local status = lib.fw_form_submit(p, name, outcome_out)
  if status ~= OK then raise(status, "fw_form_submit") end
  local outcome = SUBMIT_OUTCOME[tonumber(outcome_out[0])]
  local pending = {}
  if outcome == "pending" then
    pending = self:pending_fields()
    if name ~= nil then
      local kept = {}
      for _, id in ipairs(pending) do
        status = lib.fw_field_in_group(p, id, name, member_out)
        if status ~= OK then raise(status, "fw_field_in_group") end
        if member_out[0] then kept[#kept + 1] = id end
      end
      pending = kept
    end
  end
  return outcome, pending
end

-- check_many: records (an array of {id = value}) judged as submits of a fresh form, in one
-- fw_form_check_batch call. A record that leaves a field out holds the field's initial value,
-- read from the library (the snapshot's initial: what add_field, a spec or reset(values) made it).
local function initial_value(self, id)
  local s = snapshot(self, id)
  return ffi_string(s.initial, s.initial_length)
end

local CheckResult = {}
CheckResult.__index = CheckResult

function events.check_many(self, records, threads)
  local p = ptr(self)
  local n = #records
  local ids = self:fields()
  local nfields = #ids
  local columns = ffi_new("fw_column[?]", nfields > 0 and nfields or 1)
  local anchors, used = {}, 0
  for f = 1, nfields do
    local id = ids[f]
    local named = false
    for r = 1, n do
      if records[r][id] ~= nil then named = true break end
    end
    if named then
      local parts, offsets, at, initial = {}, ffi_new("int64_t[?]", n + 1), 0, nil
      for r = 1, n do
        local v = records[r][id]
        if v == nil then
          if initial == nil then initial = initial_value(self, id) end
          v = initial
        end
        if type(v) ~= "string" then argument_error(("record %d: %s must be a string, not %s"):format(r, id, type(v))) end
        offsets[r - 1] = at
        parts[r] = v
        at = at + #v
      end
      offsets[n] = at
      local data = table.concat(parts)
      anchors[#anchors + 1], anchors[#anchors + 2] = data, offsets
      local c = columns[used]
      c.size = ffi.sizeof("fw_column")
      c.field_id = id
      c.offsets = offsets
      c.data = data
      c.data_size = #data
      c.offset_size = 8
      used = used + 1
    end
  end
  for r = 1, n do
    for key in pairs(records[r]) do
      local known = false
      for f = 1, nfields do if ids[f] == key then known = true break end end
      if not known then argument_error(("record %d names no field of the form: %s"):format(r, tostring(key))) end
    end
  end
  local cells = n * nfields
  local valid = ffi_new("uint8_t[?]", n > 0 and n or 1)
  local failing = ffi_new("int32_t[?]", cells > 0 and cells or 1)
  local flags = ffi_new("uint8_t[?]", cells > 0 and cells or 1)
  local invalid = ffi_new("size_t[1]")
  local status = lib.fw_form_check_batch(p, columns, used, n, threads or 0, valid, failing, flags, invalid)
  if status ~= OK then raise(status, "fw_form_check_batch") end
  local result = setmetatable({ valid = {}, invalid_count = tonumber(invalid[0]), _form = self, _ids = ids,
    _failing = failing, _flags = flags, _columns = columns, _used = used, _n = n, _anchors = anchors,
    _rule_messages = {}, _rule_failures = {} }, CheckResult)
  for r = 1, n do result.valid[r] = valid[r - 1] == 1 end
  return result
end

--- The errors of record i (1-based): {id = message} for every failing field ({} when valid): the
--- failing rule's message, a custom validator's own words, or, for a pattern that hit its match
--- limits, the pattern_limit message ("This value is too complex to check"), in the form's locale.
function CheckResult:errors(i)
  local errors, nfields, form = {}, #self._ids, self._form
  for f = 1, nfields do
    local cell = (i - 1) * nfields + (f - 1)
    local rule = self._failing[cell]
    if rule >= 0 then
      local message
      if bit.band(self._flags[cell], CELL_LIMIT_EXCEEDED) ~= 0 then
        -- a pattern cut short by its limits: the catalogue's pattern_limit text, in the form's locale
        message = self._limit_message
        if message == nil then
          message = formwell.message_catalog(form:locale()).failures.pattern_limit.message
          self._limit_message = message
        end
      elseif bit.band(self._flags[cell], CELL_OWN_MESSAGE) ~= 0 then
        message = read_string(form, "fw_form_batch_message", function(p, buf, size, out)
          return lib.fw_form_batch_message(p, self._columns, self._used, self._n, i - 1, f - 1, buf, size, out)
        end)
      else
        local key = f * 65536 + rule
        message = self._rule_messages[key]
        if message == nil then
          message = read_string(form, "fw_form_rule_message", function(p, buf, size, out)
            return lib.fw_form_rule_message(p, f - 1, rule, buf, size, out)
          end)
          self._rule_messages[key] = message
        end
      end
      errors[self._ids[f]] = message
    end
  end
  return errors
end

-- The code and params text of one failing cell (C indexes): a cell flagged FW_CELL_LIMIT_EXCEEDED
-- is "pattern_limit" / "{}", any other the failing rule's (fw_form_rule_code / _params), cached
-- per (field, rule).
function CheckResult:_failure(cell, f, rule)
  if bit.band(self._flags[cell], CELL_LIMIT_EXCEEDED) ~= 0 then return "pattern_limit", "{}" end
  local key = f * 65536 + rule
  local cached = self._rule_failures[key]
  if cached == nil then
    local form = self._form
    cached = {
      read_string(form, "fw_form_rule_code", function(p, buf, size, out)
        return lib.fw_form_rule_code(p, f - 1, rule, buf, size, out)
      end),
      read_string(form, "fw_form_rule_params", function(p, buf, size, out)
        return lib.fw_form_rule_params(p, f - 1, rule, buf, size, out)
      end),
    }
    self._rule_failures[key] = cached
  end
  return cached[1], cached[2]
end

--- The failure codes of record i (1-based): {id = code} for every failing field ({} when valid),
--- as errors(i) gives its messages: the failing rule's code ("min_length"), or "pattern_limit"
--- for a pattern that hit its match limits.
function CheckResult:codes(i)
  local codes, nfields = {}, #self._ids
  for f = 1, nfields do
    local cell = (i - 1) * nfields + (f - 1)
    local rule = self._failing[cell]
    if rule >= 0 then codes[self._ids[f]] = (self:_failure(cell, f, rule)) end
  end
  return codes
end

--- The failure parameters of record i (1-based): {id = params table} for every failing field.
function CheckResult:params(i)
  local params, nfields = {}, #self._ids
  for f = 1, nfields do
    local cell = (i - 1) * nfields + (f - 1)
    local rule = self._failing[cell]
    if rule >= 0 then
      local _, text = self:_failure(cell, f, rule)
      params[self._ids[f]] = text == "{}" and {} or (json.decode(text))
    end
  end
  return params
end

--- The 1-based rule index failing for record i and field id (nil when it passes).
function CheckResult:failing_rule(i, id)
  for f, fid in ipairs(self._ids) do
    if fid == id then
      local rule = self._failing[(i - 1) * #self._ids + (f - 1)]
      return rule >= 0 and rule + 1 or nil
    end
  end
  argument_error("no field " .. tostring(id))
end

-- JIT: LuaJIT panics ("bad callback") when a C function called from JIT-compiled code calls back
-- into Lua: a trace recorded while no validator ran (say, on empty values, which validators never
-- see) would later make the same C call and enter a validator. So every event function exists
-- twice: as written (JIT-compiled freely) for forms without Lua validators, and as a COPY (a fresh
-- prototype, from string.dump, sharing the original's upvalues) with JIT compilation off, which
-- the method runs once the form has a Lua validator (self._callbacks). LuaJIT never compiles or
-- inlines a jit.off function, so those C calls always come from the interpreter; a trace that
-- reaches one stops there. The check is a field read per call, and it is made on every call, so a
-- method looked up (or a trace compiled) before the first validator was attached is still safe.
local function jit_off_copy(fn)
  local copy = assert(loadstring(string.dump(fn)))
  local i = 1
  while debug.getupvalue(fn, i) ~= nil do
    debug.upvaluejoin(copy, i, fn, i)
    i = i + 1
  end
  jit.off(copy)
  return copy
end

for name, fn in pairs(events) do
  local interpreted = jit_off_copy(fn)
  Form[name] = function(self, a, b, c, d, e, f, g, h, i)
    if self._callbacks then return interpreted(self, a, b, c, d, e, f, g, h, i) end
    return fn(self, a, b, c, d, e, f, g, h, i)
  end
end

-- ---- module functions ----------------------------------------------------------------------

--- A form from a JSON spec (text). options.validators: {name = function} for its custom rules.
function formwell.from_spec(text, options)
  local form = new_form()
  local validators = options and options.validators
  if validators then
    for name, fn in pairs(validators) do form:define_validator(name, fn) end
  end
  local ok, err = pcall(form.load_spec, form, text)
  if not ok then
    form:free()
    error(err, 2)
  end
  return form
end

--- A form from a JSON spec file.
function formwell.from_file(path, options)
  local file, err = io.open(path, "rb")
  if not file then error("formwell: " .. err, 2) end
  local text = file:read("*a")
  file:close()
  return formwell.from_spec(text, options)
end

-- ---- messages: locales, catalogues, single-value checks --------------------------------------

-- Reads a text a module function (no form) copies out: call(buf, size, out_length).
local module_buf, module_bufsize = ffi_new("char[?]", 1024), 1024
local function read_module_string(name, call)
  local status = call(module_buf, module_bufsize, length_out)
  if status == ERR_TOO_SMALL then
    local size = tonumber(length_out[0]) + 1
    module_buf, module_bufsize = ffi_new("char[?]", size), size
    status = call(module_buf, module_bufsize, length_out)
  end
  if status ~= OK then raise(status, name) end
  return ffi_string(module_buf, length_out[0])
end

--- The tags of every message catalogue, sorted: {"en", "fr"} and those add_message_catalog added.
function formwell.locales()
  return (json.decode(read_module_string("fw_locales", lib.fw_locales)))
end

--- The catalogue `locale` names, as a table decoded from its JSON (the format of a catalogue file:
--- locale, plurals, units, failures = {code = {message =, hint =}}, ...), then the JSON text.
--- An unknown locale raises FW_ERR_INVALID_ARGUMENT.
function formwell.message_catalog(locale)
  locale = cstring(locale, "locale")
  local text = read_module_string("fw_message_catalog", function(buf, size, out)
    return lib.fw_message_catalog(locale, buf, size, out)
  end)
  return (json.decode(text)), text
end

--- Adds (or replaces) a message catalogue for the whole process: its JSON text, or a table
--- encoded to JSON ({locale = "de", plurals = "one_is_1", failures = {required = {message =
--- "...", hint = "..."}}}). What it leaves out, English gives. Malformed catalogues raise
--- FW_ERR_INVALID_SPEC (the detail names the JSON path).
function formwell.add_message_catalog(catalog)
  local text
  if type(catalog) == "table" then
    local ok, encoded = pcall(json.encode, catalog)
    if not ok then argument_error("message catalogue: " .. tostring(encoded)) end
    text = encoded
  elseif type(catalog) == "string" then
    text = cstring(catalog, "message catalogue")
  else
    argument_error("add_message_catalog needs the catalogue's JSON text or a table, not " .. type(catalog))
  end
  local status = lib.fw_add_message_catalog(text)
  if status ~= OK then raise(status, "fw_add_message_catalog") end
end

local check_result_t = ffi.typeof("fw_check_result")
local CHECK_RESULT_SIZE = ffi.sizeof("fw_check_result")
local check_buf, check_bufsize = ffi_new("char[?]", 256), 256

--- Checks one value against rules without a form (fw_check_value), in the strict stage: rules is
--- a rule table (formwell.min_length(8), {rule = "email"}), an array of them, or their JSON text
--- in spec syntax; locale (optional) a catalogue tag, English when nil. Returns {validity =
--- "empty" | "valid" | "invalid", message =, code =, params = (a table), failing_rule = (1-based,
--- nil unless invalid), limit_exceeded =}. Rules that need a form (matches, not_equal,
--- required_if, required_with, required_without, custom, async) and unknown locales raise
--- FW_ERR_INVALID_ARGUMENT; malformed rules FW_ERR_INVALID_SPEC.
function formwell.check_value(rules, value, locale)
  local rules_text
  if type(rules) == "string" then
    rules_text = cstring(rules, "rules")
  elseif type(rules) == "table" then
    if rules.rule ~= nil then
      rules_text = rule_json(rules, "the rule")
    else
      local items = {}
      for i = 1, #rules do
        if type(rules[i]) ~= "table" then argument_error(("rule %d is a %s, not a table"):format(i, type(rules[i]))) end
        items[i] = rule_json(rules[i], ("rule %d"):format(i))
      end
      rules_text = "[" .. table.concat(items, ",") .. "]"
    end
  else
    argument_error("check_value needs a rule table, an array of them or their JSON text, not " .. type(rules))
  end
  value = cstring(value, "value")
  locale = optional_cstring(locale, "locale")
  local r = check_result_t()
  local status
  for _ = 1, 4 do
    r.size = CHECK_RESULT_SIZE
    status = tonumber(lib.fw_check_value(rules_text, value, locale, r, check_buf, check_bufsize))
    if status ~= ERR_TOO_SMALL then break end
    local size = tonumber(r.text_size)
    check_buf, check_bufsize = ffi_new("char[?]", size), size
  end
  if status ~= OK then raise(status, "fw_check_value") end
  local rule = r.failing_rule
  return {
    validity = VALIDITY[r.validity],
    message = text(r.message, r.message_length),
    code = text(r.code, r.code_length),
    params = params_table(r.params, r.params_length),
    failing_rule = rule >= 0 and rule + 1 or nil,
    limit_exceeded = r.limit_exceeded,
  }
end

--- Number of forms alive in the library (fw_form_live_count).
function formwell.live_count()
  return tonumber(lib.fw_form_live_count())
end

return formwell
