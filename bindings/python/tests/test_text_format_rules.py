"""The text-form rules (uuid, ip, ipv4, ipv6, hostname, luhn) as Python classes: their spec form,
their verdicts through a form and through check_value, and their parameters' checks."""

import pytest

import formwell
from formwell import Form, Hostname, Ip, Ipv4, Ipv6, Luhn, Uuid


def test_classes_write_their_spec_rules():
    assert Uuid().to_spec() == {"rule": "uuid"}
    assert Uuid(version=4).to_spec() == {"rule": "uuid", "version": 4}
    assert Ip(prefix="allowed").to_spec() == {"rule": "ip", "prefix": "allowed"}
    assert Luhn(message="Check the card number").to_spec() == {"rule": "luhn", "message": "Check the card number"}


def test_card_number_through_digits_only_and_luhn():
    form = Form()
    form.add_field("card", rules=[formwell.Required(), Luhn()], normalize=["digits_only"])
    form.set("card", "4111 1111 1111 1112")
    assert form.state("card").message == "Enter a valid number"
    form.set("card", "4111-1111-1111-1111")
    assert form.state("card").validity == formwell.Validity.VALID


@pytest.mark.parametrize("rule, value, valid", [
    (Ipv4(), "192.0.2.1", True), (Ipv4(), "192.0.2.01", False),
    (Ipv6(), "2001:db8::1", True), (Ipv6(prefix="required"), "2001:db8::1", False),
    (Ip(prefix="allowed"), "10.0.0.0/8", True), (Hostname(), "example.com", True),
    (Hostname(), "example.com.", False), (Uuid(version=7), "01890a5d-ac96-774b-bcce-b302099a8057", True),
])
def test_check_value(rule, value, valid):
    assert formwell.check_value([rule], value).valid is valid


def test_parameters_are_checked():
    with pytest.raises(formwell.InvalidArgumentError, match="uuid version 9"):
        Form().add_field("id", rules=[Uuid(version=9)])
    with pytest.raises((formwell.InvalidArgumentError, ValueError)):
        Form().add_field("ip", rules=[Ip(prefix="sometimes")])
