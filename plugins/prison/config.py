from pydantic import BaseModel


class Config(BaseModel):
    pass
